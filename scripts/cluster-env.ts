/**
 * The server settings of a bench's installation (bench:cluster, bench:cluster:cpu, bench:status):
 * production's job intervals, then `extra`, then BENCH_CLUSTER_ENV (space-separated NAME=value;
 * an empty value unsets the installation's, e.g. `MQTT_SHARE_GROUP=` for every instance recording
 * every booth report).
 */
export function clusterBenchEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    CAPTURE_SWEEP_INTERVAL_MS: '60000',
    MEDIA_PREVIEW_SWEEP_INTERVAL_MS: '30000',
    MEDIA_PREVIEW_LEASE_SECONDS: '120',
    PAYMENT_RECONCILE_INTERVAL_SECONDS: '60',
    ROLLOUT_TICK_MS: '2000',
    ROLLOUT_RETRY_MS: '30000',
    CAPTURE_DELIVERY_MARGIN_SECONDS: '900',
    DEVICE_COMMAND_TIMEOUT_MS: '5000',
    ...extra,
    ...Object.fromEntries(
      (process.env.BENCH_CLUSTER_ENV ?? '')
        .split(' ')
        .filter((setting) => setting.includes('='))
        .map((setting) => [
          setting.slice(0, setting.indexOf('=')),
          setting.slice(setting.indexOf('=') + 1),
        ]),
    ),
  };
}
