/**
 * What `make e2e-setup` is told, from the environment (upstream fleet-networking's e2e variables and ours), resolved
 * once and written to the state file so that `e2e-tests` and `e2e-cleanup` need no variable again.
 */
export type E2eMode = 'local' | 'azure';

export interface E2eSettings {
  readonly mode: E2eMode;
  /** ENABLE_AZURE_FRONT_DOOR=true: the Front Door scenarios run beside the export/import ones. */
  readonly frontDoor: boolean;
  /** Azure mode only: upstream's variables. */
  readonly azure?: {
    readonly subscriptionId: string;
    readonly resourceGroup: string;
    readonly networkSetting: string;
    readonly location: string;
  };
}

export type SettingsResult = { readonly ok: true; readonly settings: E2eSettings } | { readonly ok: false; readonly errors: readonly string[] };

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const RESOURCE_GROUP = /^[-\w._()]{1,90}$/;
const NETWORK_SETTINGS = ['shared-vnet', 'peered-vnet', 'dynamic-ip-allocation'] as const;
/** Of upstream's network shapes, what e2e/azure/setup.sh builds: one virtual network with a subnet per cluster. */
const BUILT_NETWORK_SETTINGS: readonly string[] = ['shared-vnet'];

/** A boolean variable as upstream's scripts read them: "true" or "false" (any case), unset = false. */
function flag(environment: NodeJS.ProcessEnv, name: string, errors: string[]): boolean {
  const value = environment[name];
  if (value === undefined || value === '') return false;
  if (/^true$/i.test(value)) return true;
  if (/^false$/i.test(value)) return false;
  errors.push(`${name} has invalid value "${value}"; expected true or false`);
  return false;
}

/** Pure: the settings, or every problem at once, each naming the variable, the value and what is expected. */
export function readE2eSettings(environment: NodeJS.ProcessEnv): SettingsResult {
  const errors: string[] = [];
  const mode = environment['E2E_MODE'] || 'local';
  if (mode !== 'local' && mode !== 'azure') errors.push(`E2E_MODE has invalid value "${mode}"; expected local (the default) or azure`);
  const frontDoor = flag(environment, 'ENABLE_AZURE_FRONT_DOOR', errors);
  if (flag(environment, 'ENABLE_TRAFFIC_MANAGER', errors)) {
    errors.push('ENABLE_TRAFFIC_MANAGER=true: Traffic Manager is not part of this project (it reconciles Azure Front Door); unset it');
  }
  let azure: E2eSettings['azure'];
  if (mode === 'azure') {
    const subscriptionId = environment['AZURE_SUBSCRIPTION_ID'] ?? '';
    const resourceGroup = environment['AZURE_RESOURCE_GROUP'] ?? '';
    const networkSetting = environment['AZURE_NETWORK_SETTING'] || 'shared-vnet';
    // Upstream's bootstrap.sh reads LOCATION (and MEMBER_1_LOCATION/MEMBER_2_LOCATION for peered-vnet).
    const location = environment['LOCATION'] || 'eastus2';
    if (!GUID.test(subscriptionId))
      errors.push(
        `AZURE_SUBSCRIPTION_ID has invalid value "${subscriptionId}"; expected the subscription's GUID (E2E_MODE=azure creates resources there, which costs money)`,
      );
    if (!RESOURCE_GROUP.test(resourceGroup))
      errors.push(`AZURE_RESOURCE_GROUP has invalid value "${resourceGroup}"; expected a resource group name (1-90 letters, digits, -._())`);
    if (!(NETWORK_SETTINGS as readonly string[]).includes(networkSetting))
      errors.push(`AZURE_NETWORK_SETTING has invalid value "${networkSetting}"; expected one of ${NETWORK_SETTINGS.join(', ')}`);
    else if (!BUILT_NETWORK_SETTINGS.includes(networkSetting)) {
      errors.push(
        `AZURE_NETWORK_SETTING=${networkSetting} is upstream's, but e2e/azure builds only ${BUILT_NETWORK_SETTINGS.join(', ')} (the default); unset it or set shared-vnet`,
      );
    }
    azure = { subscriptionId, resourceGroup, networkSetting, location };
  }
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, settings: { mode: mode as E2eMode, frontDoor, ...(azure ? { azure } : {}) } };
}
