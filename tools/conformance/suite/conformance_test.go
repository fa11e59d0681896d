package suite

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"
	"sigs.k8s.io/gateway-api/conformance"
	"sigs.k8s.io/gateway-api/conformance/tests"
	"sigs.k8s.io/gateway-api/conformance/utils/suite"
	"sigs.k8s.io/gateway-api/pkg/features"
)

// The class the hub chart installs for the agent's controllerName.
const gatewayClassName = "azure-fleet-afd"

// TestConformance runs upstream's Gateway-HTTP profile against the hub named by KUBECONFIG, with the features the
// GatewayClass publishes and the skips of skip-tests.yaml, and writes upstream's ConformanceReport to
// CONFORMANCE_REPORT (when set). The implementation's version comes from CONFORMANCE_IMPLEMENTATION_VERSION.
func TestConformance(t *testing.T) {
	plan := readRunPlan(t, envOr("CONFORMANCE_PLAN", filepath.Join("..", "skip-tests.yaml")))
	opts := conformance.DefaultOptions(t)
	classFeatures := gatewayClassFeatures(t, opts.Client)
	t.Logf("GatewayClass %s publishes supportedFeatures %v", gatewayClassName, classFeatures)

	opts.GatewayClassName = gatewayClassName
	opts.Implementation = plan.Implementation
	opts.Implementation.Version = envOr("CONFORMANCE_IMPLEMENTATION_VERSION", opts.Implementation.Version)
	// The run's system is thrown away after it: deleting the base objects would only cost time.
	opts.CleanupBaseResources = false
	// The report is written below, after the setup of this harness (see setUp), not by upstream's runner.
	opts.ReportOutputPath = ""
	setFeaturesAndSkips(&opts, classFeatures, plan.skipped(suiteRelease))
	opts.ManifestFS = []fs.FS{withoutBaseDeployments{&conformance.Manifests}}
	if only := os.Getenv("CONFORMANCE_RUN_TEST"); only != "" {
		opts.RunTest = only
	}

	cSuite, err := suite.NewConformanceTestSuite(opts)
	require.NoError(t, err, "creating the conformance suite")
	// The parallel tests of later releases (v1.6.3) finish only after Run returns, when their parent test ends: the report is
	// built then, as upstream's own runner does.
	t.Cleanup(func() { writeReport(t, cSuite, os.Getenv("CONFORMANCE_REPORT")) })
	setUp(t, cSuite, plan)
	require.NoError(t, cSuite.Run(t, tests.ConformanceTests))
}

func writeReport(t *testing.T, cSuite *suite.ConformanceTestSuite, output string) {
	report, err := cSuite.Report()
	require.NoError(t, err, "building the conformance report")
	if output == "" {
		return
	}
	raw, err := yaml.Marshal(report)
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Dir(output), 0o755))
	require.NoError(t, os.WriteFile(output, raw, 0o644))
	t.Logf("wrote the conformance report to %s", output)
}

// gatewayClassFeatures reads the features the hub agent publishes in the GatewayClass status. A hub whose
// GatewayClass CRD does not serve status.supportedFeatures (v1.2.1's standard channel prunes it) publishes none:
// the run then claims only the profile's core features.
func gatewayClassFeatures(t *testing.T, c client.Client) []features.FeatureName {
	gwc := &gatewayv1.GatewayClass{}
	require.NoError(t, c.Get(context.Background(), types.NamespacedName{Name: gatewayClassName}, gwc), "reading GatewayClass %s", gatewayClassName)
	names := make([]features.FeatureName, 0, len(gwc.Status.SupportedFeatures))
	for _, f := range gwc.Status.SupportedFeatures {
		names = append(names, features.FeatureName(f.Name))
	}
	return names
}

func envOr(name, fallback string) string {
	if value := os.Getenv(name); value != "" {
		return value
	}
	return fallback
}
