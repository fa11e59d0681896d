//go:build !gatewayapi_v1_6

package suite

import (
	"k8s.io/apimachinery/pkg/util/sets"

	"sigs.k8s.io/gateway-api/conformance/utils/suite"
	"sigs.k8s.io/gateway-api/pkg/features"
)

// suiteRelease is the Gateway API release of the suite this build runs.
const suiteRelease = "v1.2.1"

// setFeaturesAndSkips fills the options whose types differ between releases (v1.2.1: sets).
func setFeaturesAndSkips(opts *suite.ConformanceOptions, supported []features.FeatureName, skipped []string) {
	opts.SupportedFeatures = sets.New(supported...)
	opts.ExemptFeatures = sets.New[features.FeatureName]()
	opts.EnableAllSupportedFeatures = false
	opts.ConformanceProfiles = sets.New(suite.GatewayHTTPConformanceProfileName)
	opts.SkipTests = skipped
}
