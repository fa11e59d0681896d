// The controller-runtime side of tools/runtime-bench: one manager with a ConfigMap cache and a no-op reconciler (one
// worker), logging (zap, info) and metrics at their defaults, measured exactly as the TypeScript counterpart
// (../../src/ours-probe.ts) measures ours. Figures are printed as one `BENCH {json}` line on stdout.
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

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/cache"
	ctrl "sigs.k8s.io/controller-runtime"
	ctrlcache "sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// The annotation the orchestrator writes on each timed update: its wall-clock send time in microseconds.
const stampAnnotation = "bench.fleet-gateway/sent-at-us"

type report struct {
	Event            string    `json:"event"`
	Objects          int       `json:"objects"`
	BaselineRSSMiB   float64   `json:"baselineRssMiB"`
	SyncSeconds      float64   `json:"syncSeconds"`
	SyncCPUMs        float64   `json:"syncCpuMs"`
	CacheHeapMiB     float64   `json:"cacheHeapMiB"`
	ReconcilesPerSec float64   `json:"reconcilesPerSecond"`
	WatchLatencyMs   []float64 `json:"watchLatencyMs"`
	WatchCPUMs       float64   `json:"watchCpuMs"`
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

func emit(event string, fields map[string]any) {
	fields["event"] = event
	line, _ := json.Marshal(fields)
	fmt.Printf("BENCH %s\n", line)
}

func main() {
	namespace := flag.String("namespace", "bench", "namespace holding the ConfigMaps")
	objects := flag.Int("objects", 10000, "ConfigMaps expected in the namespace")
	updates := flag.Int("updates", 1000, "timed updates to wait for after the first pass")
	flag.Parse()
	baseline := rssMiB()
	heapBefore := liveHeapMiB()

	ctrl.SetLogger(zap.New())
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

	var mu sync.Mutex
	reconciles := 0
	var firstReconcile, lastReconcile time.Time
	firstPassDone := make(chan struct{})
	err = ctrl.NewControllerManagedBy(manager).
		For(&corev1.ConfigMap{}).
		WithOptions(controller.Options{MaxConcurrentReconciles: 1}).
		Complete(reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) {
			mu.Lock()
			reconciles++
			now := time.Now()
			if reconciles == 1 {
				firstReconcile = now
			}
			if reconciles == *objects {
				lastReconcile = now
				close(firstPassDone)
			}
			mu.Unlock()
			return reconcile.Result{}, nil
		}))
	if err != nil {
		panic(err)
	}

	informer, err := manager.GetCache().GetInformer(context.Background(), &corev1.ConfigMap{})
	if err != nil {
		panic(err)
	}
	latencies := make([]float64, 0, *updates)
	allUpdates := make(chan struct{})
	_, _ = informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		UpdateFunc: func(_, updated any) {
			sent, ok := updated.(*corev1.ConfigMap).Annotations[stampAnnotation]
			if !ok {
				return
			}
			sentUs, _ := strconv.ParseInt(sent, 10, 64)
			mu.Lock()
			defer mu.Unlock()
			latencies = append(latencies, float64(time.Now().UnixMicro()-sentUs)/1000)
			if len(latencies) == *updates {
				close(allUpdates)
			}
		},
	})

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
	cacheHeap := liveHeapMiB() - heapBefore
	<-firstPassDone
	rate := float64(*objects-1) / lastReconcile.Sub(firstReconcile).Seconds()

	// The orchestrator writes the timed updates once it reads this line; the CPU from here to the last observed
	// update is the cost of handling those events (decode, cache, handler, enqueue, reconcile) on an idle process.
	cpuReady := cpuMs()
	emit("ready", map[string]any{})
	<-allUpdates
	watchCPU := cpuMs() - cpuReady
	sort.Float64s(latencies)
	list := &corev1.ConfigMapList{}
	if err := manager.GetCache().List(ctx, list); err != nil {
		panic(err)
	}
	line, _ := json.Marshal(report{Event: "report",
		Objects: len(list.Items), BaselineRSSMiB: baseline, SyncSeconds: syncSeconds, SyncCPUMs: syncCPU,
		CacheHeapMiB: cacheHeap, ReconcilesPerSec: rate, WatchLatencyMs: latencies, WatchCPUMs: watchCPU,
	})
	fmt.Printf("BENCH %s\n", line)
	cancel()
}
