package suite

import (
	"os"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	confv1 "sigs.k8s.io/gateway-api/conformance/apis/v1"
)

// runPlan is skip-tests.yaml: who runs the suite, which upstream tests are skipped and why, and which base
// Gateways of upstream's manifests this implementation refuses to program (and why).
type runPlan struct {
	Implementation confv1.Implementation `json:"implementation"`
	// Reasons, by key: one line each, said once.
	Reasons map[string]string `json:"reasons"`
	// SkipTests maps an upstream test's ShortName to the key of its reason.
	SkipTests map[string]string `json:"skipTests"`
	// SkipTestsOnRelease adds, per Gateway API release of the suite, the tests skipped on that release only.
	SkipTestsOnRelease map[string]map[string]string `json:"skipTestsOnRelease"`
	// UnprogrammedBaseGateways maps namespace/name of a base Gateway to the key of the reason it is not Programmed.
	UnprogrammedBaseGateways map[string]string `json:"unprogrammedBaseGateways"`
}

func readRunPlan(t *testing.T, path string) runPlan {
	raw, err := os.ReadFile(path)
	require.NoError(t, err, "reading the run plan")
	var plan runPlan
	require.NoError(t, yaml.UnmarshalStrict(raw, &plan), "parsing %s", path)
	for test, key := range plan.SkipTests {
		require.Contains(t, plan.Reasons, key, "%s: skipTests.%s names reason %q, which reasons does not define", path, test, key)
	}
	for release, skips := range plan.SkipTestsOnRelease {
		for test, key := range skips {
			require.Contains(t, plan.Reasons, key, "%s: skipTestsOnRelease.%s.%s names reason %q, which reasons does not define", path, release, test, key)
		}
	}
	for gateway, key := range plan.UnprogrammedBaseGateways {
		require.Contains(t, plan.Reasons, key, "%s: unprogrammedBaseGateways.%s names reason %q, which reasons does not define", path, gateway, key)
	}
	return plan
}

// skipped lists the tests skipped on the suite's release.
func (p runPlan) skipped(release string) []string {
	names := make([]string, 0, len(p.SkipTests))
	for name := range p.SkipTests {
		names = append(names, name)
	}
	for name := range p.SkipTestsOnRelease[release] {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}
