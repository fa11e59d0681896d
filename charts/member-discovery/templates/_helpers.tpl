{{- define "member-discovery.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "member-discovery.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "member-discovery.selectorLabels" -}}
app.kubernetes.io/name: {{ include "member-discovery.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "member-discovery.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "member-discovery.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: fleet-gateway
{{- end }}

{{- define "member-discovery.serviceAccountName" -}}
{{- default (include "member-discovery.fullname" .) .Values.serviceAccount.name }}
{{- end }}

{{- define "member-discovery.leaderElectionNamespace" -}}
{{- default .Values.fleetSystemNamespace .Values.leaderElection.namespace }}
{{- end }}

{{- /* The hub connection: a kubeconfig Secret, or upstream's environment with a token Secret; never neither. */ -}}
{{- define "member-discovery.hubMode" -}}
{{- $hub := .Values.hub }}
{{- if $hub.kubeconfigSecret.name }}
{{- if or $hub.serverURL $hub.tokenSecret.name }}
{{- fail "hub: set either hub.kubeconfigSecret.name or hub.serverURL with hub.tokenSecret.name, not both" }}
{{- end }}
{{- print "kubeconfig" }}
{{- else if and $hub.serverURL $hub.certificateAuthority $hub.tokenSecret.name }}
{{- print "environment" }}
{{- else }}
{{- fail "hub: set hub.kubeconfigSecret.name (a Secret with a hub kubeconfig), or hub.serverURL, hub.certificateAuthority and hub.tokenSecret.name (upstream's HUB_SERVER_URL, HUB_CERTIFICATE_AUTHORITY, CONFIG_PATH)" }}
{{- end }}
{{- end }}

{{- /* The image reference: repository@digest when a digest is set (the digest wins over the tag), else repository:tag. */}}
{{- define "member-discovery.image" -}}
{{- if .Values.image.digest }}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion) }}
{{- end }}
{{- end }}

{{- /* --azure-credential and --azure-client-id: workload identity when enabled, else managed identity. */}}
{{- define "member-discovery.azureCredentialArgs" -}}
{{- if .Values.workloadIdentity.enabled }}
- --azure-credential=workload-identity
{{- with .Values.workloadIdentity.clientId }}
- --azure-client-id={{ . }}
{{- end }}
{{- else }}
- --azure-credential=managed-identity
{{- with .Values.managedIdentity.clientId }}
- --azure-client-id={{ . }}
{{- end }}
{{- end }}
{{- end }}

{{- /*
The ServiceMonitor endpoint's scheme, token and TLS for metrics.secure: HTTPS with Prometheus's own ServiceAccount token
(bearerTokenFile) or serviceMonitor.tokenSecret's (authorization); the certificate checked against metrics.certSecret's
CA, or not checked when the agent makes its own self-signed one at each start (there is nothing to check it against).
*/}}
{{- define "member-discovery.serviceMonitorSecurity" -}}
{{- if .Values.metrics.secure -}}
scheme: https
{{- if .Values.serviceMonitor.tokenSecret.name }}
authorization:
  type: Bearer
  credentials:
    name: {{ .Values.serviceMonitor.tokenSecret.name }}
    key: {{ .Values.serviceMonitor.tokenSecret.key }}
{{- else }}
bearerTokenFile: /var/run/secrets/kubernetes.io/serviceaccount/token
{{- end }}
tlsConfig:
{{- if .Values.metrics.certSecret }}
  ca:
    secret:
      name: {{ .Values.metrics.certSecret }}
      key: {{ .Values.serviceMonitor.caKey }}
  serverName: {{ include "member-discovery.fullname" . }}-metrics.{{ .Values.fleetSystemNamespace }}.svc
{{- else }}
  insecureSkipVerify: true
{{- end }}
{{- else -}}
scheme: http
{{- end }}
{{- end }}
