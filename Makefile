# Entry points. Every target installs what it needs first (tools/bootstrap.sh), so each works on a fresh machine.
SHELL := /bin/bash
# The pinned Node (installed by bootstrap when the machine's is older) and pnpm come first on PATH for every target.
include tools/toolchain.env
export PATH := $(CURDIR)/.cache/node/$(NODE_VERSION)/bin:$(CURDIR)/.cache/pnpm/$(PNPM_VERSION):$(PATH)
LOCAL_DIR ?= $(CURDIR)/.cache/local-system
CLUSTERS ?= hub,member-1,member-2

.PHONY: bootstrap shell test local-up local-down clean e2e-setup e2e-tests e2e-cleanup e2e conformance

bootstrap:
	tools/bootstrap.sh

# An interactive shell with the project's Node and pnpm first on PATH (or, without make: source tools/node-env.sh).
shell: bootstrap
	@echo "node $$(node --version), pnpm $$(pnpm --version); exit to leave"
	@$(SHELL) -i

# The test command (README, .ci/run): typecheck, lint and every project's tests (never from the Nx cache), the
# leftover check, then one closing line "tests: N passed, N failed, N skipped" (printed even when a step failed).
test: bootstrap
	tools/scripts/run-all-tests.sh

# The local system on its embedded default: real control planes (hub + members, all CRDs installed), the Azure
# emulator with a cloud-provider stand-in and an echo backend per member, both agents' bundles (feature gates and
# auto-approval on) and the sample Gateway; waits until the edge answers from every member, then prints how to reach
# it. Stop with local-down.
local-up: bootstrap
	NX_NO_CLOUD=true pnpm exec nx run-many -t bundle -p hub-gateway,member-discovery --output-style=static
	pnpm exec tsx tools/local-system/src/cli.ts up --clusters $(CLUSTERS) --dir $(LOCAL_DIR)

local-down:
	pnpm exec tsx tools/local-system/src/cli.ts down --dir $(LOCAL_DIR)

# End-to-end suites (e2e/README.md). Settings come from the environment once, at set-up: E2E_MODE=local|azure (default
# local), ENABLE_AZURE_FRONT_DOOR=true for the Front Door scenarios, upstream's AZURE_* (and HELM, a Helm 4) in Azure
# mode, which runs e2e/azure/*.sh with a logged-in az and costs money; e2e-setup records them and the system it started
# or created in .cache/e2e/state.json, which e2e-tests and e2e-cleanup read.
e2e-setup: bootstrap
	NX_NO_CLOUD=true pnpm exec nx run-many -t bundle -p hub-gateway,member-discovery --output-style=static
	pnpm exec tsx e2e/src/cli.ts setup

e2e-tests: bootstrap
	pnpm exec tsx e2e/src/cli.ts tests

e2e-cleanup: bootstrap
	pnpm exec tsx e2e/src/cli.ts cleanup

# All three; the cleanup always runs, and the exit status is the first failure's.
e2e:
	@status=0; $(MAKE) e2e-setup && $(MAKE) e2e-tests || status=$$?; $(MAKE) e2e-cleanup || true; exit $$status

# Upstream's Gateway API conformance suite (tools/conformance/README.md) for GATEWAY_API_VERSION (v1.2.1 or v1.6.3,
# default v1.2.1): starts the local system on that release (hub and member-1, both agents, the Azure emulator and its
# edge), runs the suite against the hub, writes the ConformanceReport under tools/conformance/reports/ and stops
# everything.
conformance: bootstrap
	NX_NO_CLOUD=true pnpm exec nx run-many -t bundle -p hub-gateway,member-discovery --output-style=static
	pnpm exec tsx tools/conformance/src/cli.ts run $(if $(GATEWAY_API_VERSION),--gateway-api-version $(GATEWAY_API_VERSION))

clean: local-down e2e-cleanup
	rm -rf .cache test-results .nx node_modules/.vite
