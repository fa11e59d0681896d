package suite

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"
	"sigs.k8s.io/gateway-api/conformance/utils/kubernetes"
	"sigs.k8s.io/gateway-api/conformance/utils/suite"
	"sigs.k8s.io/gateway-api/conformance/utils/tlog"
)

// The namespaces of upstream's base manifests whose Gateways upstream's setup waits for.
var baseNamespaces = []string{"gateway-conformance-infra", "gateway-conformance-app-backend", "gateway-conformance-web-backend"}

// setUp does what upstream's Setup does for the Gateway profiles — the GatewayClass Accepted, upstream's base
// manifests applied (without their Deployments: see withoutBaseDeployments), the Secrets its base Gateways refer to,
// every base Gateway Accepted and Programmed — with one addition: the base Gateways the plan lists as unprogrammed get upstream's
// annotation that excludes them from the readiness waits. Upstream's own Setup cannot be used as is: it waits before
// any such annotation could be put, and v1.6.3's wait wants at least one Ready Pod in each namespace.
func setUp(t *testing.T, s *suite.ConformanceTestSuite, plan runPlan) {
	s.Applier.ManifestFS = s.ManifestFS
	s.Applier.UsableNetworkAddresses = s.UsableNetworkAddresses
	s.Applier.UnusableNetworkAddresses = s.UnusableNetworkAddresses

	tlog.Logf(t, "Test Setup: Ensuring GatewayClass has been accepted")
	s.ControllerName = kubernetes.GWCMustHaveAcceptedConditionTrue(t, s.Client, s.TimeoutConfig, s.GatewayClassName)
	s.Applier.GatewayClass = s.GatewayClassName
	s.Applier.ControllerName = s.ControllerName

	tlog.Logf(t, "Test Setup: Applying base manifests")
	s.Applier.MustApplyWithCleanup(t, s.Client, s.TimeoutConfig, s.BaseManifests, s.Cleanup)

	tlog.Logf(t, "Test Setup: Applying the Secrets the base Gateways refer to")
	for _, secret := range []client.Object{
		kubernetes.MustCreateSelfSignedCertSecret(t, "gateway-conformance-web-backend", "certificate", []string{"*"}),
		kubernetes.MustCreateSelfSignedCertSecret(t, "gateway-conformance-infra", "tls-validity-checks-certificate", []string{"*", "*.org", "*.wildcard.org"}),
	} {
		s.Applier.MustApplyObjectsWithCleanup(t, s.Client, s.TimeoutConfig, []client.Object{secret}, s.Cleanup)
	}

	for name, reason := range plan.UnprogrammedBaseGateways {
		tlog.Logf(t, "Test Setup: excluding Gateway %s from the readiness checks: %s", name, plan.Reasons[reason])
		excludeFromReadinessChecks(t, s.Client, name)
	}

	tlog.Logf(t, "Test Setup: Ensuring Gateways from base manifests are ready (they have no Pods: see withoutBaseDeployments)")
	for _, nn := range gatewaysToBeReady(t, s.Client) {
		kubernetes.GatewayMustHaveLatestConditions(t, s.Client, s.TimeoutConfig, nn)
		kubernetes.GatewayMustHaveCondition(t, s.Client, s.TimeoutConfig, nn, metav1.Condition{Type: string(gatewayv1.GatewayConditionAccepted), Status: metav1.ConditionTrue})
		kubernetes.GatewayMustHaveCondition(t, s.Client, s.TimeoutConfig, nn, metav1.Condition{Type: string(gatewayv1.GatewayConditionProgrammed), Status: metav1.ConditionTrue})
	}
}

// gatewaysToBeReady lists the base Gateways without upstream's readiness exclusion: what upstream's readiness wait
// (NamespacesMustBeReady) checks, less its Pods, which v1.6.3 requires to exist.
func gatewaysToBeReady(t *testing.T, c client.Client) []types.NamespacedName {
	var names []types.NamespacedName
	for _, ns := range baseNamespaces {
		list := &gatewayv1.GatewayList{}
		require.NoError(t, c.List(context.Background(), list, client.InNamespace(ns)), "listing the Gateways in %s", ns)
		for _, gw := range list.Items {
			if gw.Annotations[kubernetes.GatewayExcludedFromReadinessChecks] != "true" {
				names = append(names, client.ObjectKeyFromObject(&gw))
			}
		}
	}
	return names
}

// excludeFromReadinessChecks puts upstream's annotation for that on a base Gateway (namespace/name) this
// implementation refuses: upstream's readiness waits then leave it out, and every other Gateway must be ready.
func excludeFromReadinessChecks(t *testing.T, c client.Client, name string) {
	namespace, gatewayName, found := strings.Cut(name, "/")
	require.True(t, found, "unprogrammedBaseGateways: %q is not namespace/name", name)
	gw := &gatewayv1.Gateway{}
	require.NoError(t, c.Get(context.Background(), types.NamespacedName{Namespace: namespace, Name: gatewayName}, gw), "reading Gateway %s", name)
	original := gw.DeepCopy()
	if gw.Annotations == nil {
		gw.Annotations = map[string]string{}
	}
	gw.Annotations[kubernetes.GatewayExcludedFromReadinessChecks] = "true"
	require.NoError(t, c.Patch(context.Background(), gw, client.MergeFrom(original)), "annotating Gateway %s", name)
}
