{{- define "hub-gateway.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "hub-gateway.fullname" -}}
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

{{- define "hub-gateway.selectorLabels" -}}
app.kubernetes.io/name: {{ include "hub-gateway.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "hub-gateway.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "hub-gateway.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: fleet-gateway
{{- end }}

{{- define "hub-gateway.serviceAccountName" -}}
{{- default (include "hub-gateway.fullname" .) .Values.serviceAccount.name }}
{{- end }}

{{- define "hub-gateway.leaderElectionNamespace" -}}
{{- default .Values.fleetSystemNamespace .Values.leaderElection.namespace }}
{{- end }}

{{- /* The image reference: repository@digest when a digest is set (the digest wins over the tag), else repository:tag. */}}
{{- define "hub-gateway.image" -}}
{{- if .Values.image.digest }}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion) }}
{{- end }}
{{- end }}

{{- /* --azure-credential and --azure-client-id: workload identity when enabled, else managed identity. */}}
{{- define "hub-gateway.azureCredentialArgs" -}}
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
