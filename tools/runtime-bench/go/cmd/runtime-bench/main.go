// The controller-runtime side of tools/runtime-bench: one manager with a ConfigMap cache and a no-op reconciler (one
// worker, controller-runtime's default queue: the priority queue), metrics recorded at their defaults (the global
// registry; only the listener is off), no logging (logr.Discard: a zap logger costs a WithValues per reconcile even
// at info, and ours logs nothing either), GOMAXPROCS at Go's default (the CPUs the process may use); measured exactly
// as the TypeScript counterpart (../../src/ours-probe.ts) measures ours. Figures are printed as `BENCH {json}` lines
// on stdout; the README lists every setting.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	ctrl "sigs.k8s.io/controller-runtime"
	ctrlcache "sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"
)

// The annotation the orchestrator writes on each timed update: its wall-clock send time in microseconds.
const stampAnnotation = "bench.fleet-gateway/sent-at-us"

type burst struct {
	Writers        int       `json:"writers"`
	WatchLatencyMs []float64 `json:"watchLatencyMs"`
	WatchCPUMs     float64   `json:"watchCpuMs"`
}

type report struct {
	Event            string  `json:"event"`
	Objects          int     `json:"objects"`
	BaselineRSSMiB   float64 `json:"baselineRssMiB"`
	SyncSeconds      float64 `json:"syncSeconds"`
	SyncCPUMs        float64 `json:"syncCpuMs"`
	CacheHeapMiB     float64 `json:"cacheHeapMiB"`
	ReconcilesPerSec float64 `json:"reconcilesPerSecond"`
	Bursts           []burst `json:"bursts"`
	Threads          int     `json:"threads"`
}

func cpuMs() float64 {
	var usage syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &usage)
	return float64(usage.Utime.Nano()+usage.Stime.Nano()) / 1e6
}

func rssMiB() float64 {
	status, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(status), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			kib, _ := strconv.ParseFloat(strings.Fields(line)[1], 64)
			return kib / 1024
		}
	}
	return 0
}

func liveHeapMiB() float64 {
	runtime.GC()
	runtime.GC()
	var stats runtime.MemStats
	runtime.ReadMemStats(&stats)
	return float64(stats.HeapAlloc) / 1024 / 1024
}

func emit(fields any) {
	line, _ := json.Marshal(fields)
	fmt.Printf("BENCH %s\n", line)
}

// Counts reconciles and releases whoever waits for the count to reach a target.
type reconcileCounter struct {
	mu      sync.Mutex
	count   int
	target  int
	reached chan struct{}
}

func (c *reconcileCounter) expect(target int) <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.target, c.reached = target, make(chan struct{})
	if c.count >= target {
		close(c.reached)
	}
	return c.reached
}

func (c *reconcileCounter) add() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.count++
	if c.count == c.target {
		close(c.reached)
	}
}

// Collects the latencies of the stamped updates of the current burst and releases the waiter at the last one.
type burstWatch struct {
	mu        sync.Mutex
	latencies []float64
	want      int
	complete  chan struct{}
}

func (b *burstWatch) begin(want int) <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.latencies, b.want, b.complete = make([]float64, 0, want), want, make(chan struct{})
	return b.complete
}

func (b *burstWatch) seen(latencyMs float64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.complete == nil || len(b.latencies) == b.want {
		return
	}
	b.latencies = append(b.latencies, latencyMs)
	if len(b.latencies) == b.want {
		close(b.complete)
	}
}

func main() {
	namespace := flag.String("namespace", "bench", "namespace holding the ConfigMaps")
	objects := flag.Int("objects", 10000, "ConfigMaps expected in the namespace")
	updates := flag.Int("updates", 3000, "timed updates to wait for in each burst")
	writers := flag.String("writers", "16,1", "the writers of each burst, in order")
	flag.Parse()
	baseline := rssMiB()
	heapBefore := liveHeapMiB()

	ctrl.SetLogger(logr.Discard())
	// controller-runtime registers -kubeconfig itself; GetConfig reads it.
	config, err := ctrl.GetConfig()
	if err != nil {
		panic(err)
	}
	// client-go's defaults for a manager (QPS 20, burst 30) are what a controller author gets.
	started := time.Now()
	cpuStarted := cpuMs()
	manager, err := ctrl.NewManager(config, ctrl.Options{
		Cache:                  ctrlcache.Options{DefaultNamespaces: map[string]ctrlcache.Config{*namespace: {}}},
		Metrics:                metricsserver.Options{BindAddress: "0"}, // metrics are recorded as always; only the listener is off (port clashes)
		HealthProbeBindAddress: "0",
	})
	if err != nil {
		panic(err)
	}

	reconciles := &reconcileCounter{}
	// The controller's own queue, handed over by a source when the controller starts: the timed pass enqueues into it.
	queueReady := make(chan workqueue.TypedRateLimitingInterface[reconcile.Request], 1)
	err = ctrl.NewControllerManagedBy(manager).
		For(&corev1.ConfigMap{}).
		WatchesRawSource(source.Func(func(_ context.Context, queue workqueue.TypedRateLimitingInterface[reconcile.Request]) error {
			queueReady <- queue
			return nil
		})).
		WithOptions(controller.Options{MaxConcurrentReconciles: 1}).
		Complete(reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) {
			reconciles.add()
			return reconcile.Result{}, nil
		}))
	if err != nil {
		panic(err)
	}

	informer, err := manager.GetCache().GetInformer(context.Background(), &corev1.ConfigMap{})
	if err != nil {
		panic(err)
	}
	watch := &burstWatch{}
	_, _ = informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		UpdateFunc: func(_, updated any) {
			sent, ok := updated.(*corev1.ConfigMap).Annotations[stampAnnotation]
			if !ok {
				return
			}
			sentUs, _ := strconv.ParseInt(sent, 10, 64)
			watch.seen(float64(time.Now().UnixMicro()-sentUs) / 1000)
		},
	})

	firstPass := reconciles.expect(*objects)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		if err := manager.Start(ctx); err != nil {
			panic(err)
		}
	}()
	if !manager.GetCache().WaitForCacheSync(ctx) {
		panic("cache never synced")
	}
	syncSeconds := time.Since(started).Seconds()
	syncCPU := cpuMs() - cpuStarted
	// The controller's workers run from here (they start at the cache's sync), so this heap holds its queue too.
	cacheHeap := liveHeapMiB() - heapBefore
	<-firstPass
	queue := <-queueReady

	// The timed pass: every cached object's key enqueued at once, to the last of those reconciles done.
	list := &corev1.ConfigMapList{}
	if err := manager.GetCache().List(ctx, list); err != nil {
		panic(err)
	}
	requests := make([]reconcile.Request, len(list.Items))
	for i := range list.Items {
		requests[i] = reconcile.Request{NamespacedName: types.NamespacedName{Namespace: list.Items[i].Namespace, Name: list.Items[i].Name}}
	}
	timedPass := reconciles.expect(*objects + len(requests))
	enqueued := time.Now()
	for _, request := range requests {
		queue.Add(request)
	}
	<-timedPass
	rate := float64(len(requests)) / time.Since(enqueued).Seconds()

	// Each burst: the orchestrator writes the stamped updates once it reads `ready`; the CPU from there to the last
	// update observed is the cost of handling those events (decode, cache, handlers, enqueue, reconcile).
	bursts := []burst{}
	for _, field := range strings.Split(*writers, ",") {
		count, _ := strconv.Atoi(field)
		complete := watch.begin(*updates)
		cpuReady := cpuMs()
		emit(map[string]any{"event": "ready", "writers": count})
		<-complete
		watchCPU := cpuMs() - cpuReady
		watch.mu.Lock()
		latencies := watch.latencies
		watch.mu.Unlock()
		sort.Float64s(latencies)
		bursts = append(bursts, burst{Writers: count, WatchLatencyMs: latencies, WatchCPUMs: watchCPU})
	}
	emit(report{Event: "report",
		Objects: len(list.Items), BaselineRSSMiB: baseline, SyncSeconds: syncSeconds, SyncCPUMs: syncCPU,
		CacheHeapMiB: cacheHeap, ReconcilesPerSec: rate, Bursts: bursts, Threads: runtime.GOMAXPROCS(0),
	})
	cancel()
}
