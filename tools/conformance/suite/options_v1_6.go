//go:build gatewayapi_v1_6

package suite

import (
	"sigs.k8s.io/gateway-api/conformance/utils/suite"
	"sigs.k8s.io/gateway-api/pkg/features"
)

// suiteRelease is the Gateway API release of the suite this build runs.
const suiteRelease = "v1.6.3"

// setFeaturesAndSkips fills the options whose types differ between releases (v1.6: slices).
func setFeaturesAndSkips(opts *suite.ConformanceOptions, supported []features.FeatureName, skipped []string) {
	opts.SupportedFeatures = supported
	opts.ExemptFeatures = nil
	opts.EnableAllSupportedFeatures = false
	opts.ConformanceProfiles = []suite.ConformanceProfileName{suite.GatewayHTTPConformanceProfileName}
	opts.SkipTests = skipped
}
