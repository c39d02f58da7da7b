import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import type { Infrastructure } from './infrastructure.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { deviceSelfRoutes } from './modules/devices/devices.device.routes.js';
import { staffDevicesRoutes } from './modules/devices/devices.routes.js';
import { staffDeviceStatusRoutes } from './modules/devices/devices.status-stream.js';
import { visitorDevicesRoutes } from './modules/devices/devices.visitor.routes.js';
import { visitorVisitsRoutes } from './modules/visits/visits.routes.js';
import {
  deviceEnrollmentRoutes,
  staffEnrollmentRoutes,
} from './modules/enrollment/enrollment.routes.js';
import { backgroundJobs } from './jobs.js';
import { detailsAccess } from './modules/health/details-access.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { probeRoutes } from './modules/health/probes.routes.js';
import { deviceMediaRoutes, visitorMediaRoutes } from './modules/media/media.routes.js';
import { staffMediaRoutes } from './modules/media/media.staff.routes.js';
import { mqttGoAuthRoutes } from './modules/mqtt/mqtt-go-auth.routes.js';
import { mqttHookRoutes } from './modules/mqtt/mqtt.routes.js';
import { staffOrganizationsRoutes } from './modules/organizations/organizations.routes.js';
import { passkeysRoutes } from './modules/passkeys/passkeys.routes.js';
import {
  phonePeWebhookRoutes,
  staffCreditsRoutes,
  staffPaymentsRoutes,
  visitorPaymentsRoutes,
} from './modules/payments/payments.routes.js';
import { PhonePeProvider } from './modules/payments/phonepe.provider.js';
import { SANDBOX_CHECKOUT_PATH, SandboxProvider } from './modules/payments/sandbox.provider.js';
import { sandboxCheckoutRoutes } from './modules/payments/sandbox.routes.js';
import { staffPrivacyRoutes, visitorPrivacyRoutes } from './modules/privacy/privacy.routes.js';
import { staffRolloutsRoutes } from './modules/rollouts/rollouts.routes.js';
import { devSmsRoutes } from './modules/sms/sms.routes.js';
import { boothInstallRoutes, staffSoftwareRoutes } from './modules/software/software.routes.js';
import { staffStatsRoutes } from './modules/stats/stats.routes.js';
import { LocalStorage } from './modules/storage/local-storage.js';
import { storageRoutes } from './modules/storage/storage.routes.js';
import { staffTemplatePreviewRoutes } from './modules/templates/templates.preview.routes.js';
import { staffTemplatesRoutes } from './modules/templates/templates.routes.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { shareRoutes } from './modules/share/share.routes.js';
import { visitorKioskWallRoutes } from './modules/wall/wall.kiosk.routes.js';
import { staffWallRoutes, visitorWallRoutes } from './modules/wall/wall.routes.js';
import { createAuthenticate } from './security/authenticate.js';
import type { Services } from './services.js';

/** One route plugin with its options, checked against each other when the table is written. */
export interface Mount {
  register(scope: FastifyInstance): Promise<void>;
}

function use<Options extends Record<string, unknown>>(
  plugin: FastifyPluginAsyncZod<Options>,
  options: Options,
): Mount {
  return {
    async register(scope) {
      await scope.register(plugin, options);
    },
  };
}

/**
 * Every URL prefix and the route plugins mounted under it: the whole HTTP surface in one place
 * (docs/architecture.md has the prefix → module table). Under the two API bases each module has
 * one plugin per pool (`visitor…Routes` under /api/regular, `staff…Routes` under
 * /api/enterprise); sign-in and the caller's own profile are the same calls in both pools, so
 * those two take the pool as an option.
 */
export function routeTable(
  config: Config,
  infra: Infrastructure,
  s: Services,
): Record<string, Mount[]> {
  const visitor = createAuthenticate(s.tokens, 'regular');
  const staff = createAuthenticate(s.tokens, 'enterprise');
  const cookieSecure = config.auth.cookieSecure;
  const { paymentProvider: provider, storage } = { ...s, ...infra };
  // The same jobs the runner has (app.ts), for their names, descriptions and intervals.
  const jobList = backgroundJobs(config, s);
  return {
    '/api/regular': [
      use(authRoutes, { pool: 'regular', auth: s.auth, cookieSecure }),
      use(usersRoutes, { pool: 'regular', users: s.users, authenticate: visitor }),
      use(passkeysRoutes, {
        pool: 'regular',
        passkeys: s.passkeys,
        authenticate: visitor,
        cookieSecure,
      }),
      use(visitorDevicesRoutes, {
        devices: s.devices,
        templates: s.templates,
        captures: s.captures,
        authenticate: visitor,
      }),
      use(visitorVisitsRoutes, { visits: s.visits, authenticate: visitor }),
      use(visitorMediaRoutes, { media: s.media, authenticate: visitor }),
      use(visitorWallRoutes, { wall: s.wall, authenticate: visitor }),
      // The kiosk walls (no session), in a plugin of its own: it ends its streams on close.
      use(visitorKioskWallRoutes, { kiosk: s.kioskWall, feed: s.wallFeed }),
      use(visitorPaymentsRoutes, { payments: s.payments, authenticate: visitor }),
      use(visitorPrivacyRoutes, { privacy: s.privacy, authenticate: visitor }),
    ],
    '/api/enterprise': [
      use(authRoutes, { pool: 'enterprise', auth: s.auth, cookieSecure }),
      use(usersRoutes, { pool: 'enterprise', users: s.users, authenticate: staff }),
      use(passkeysRoutes, {
        pool: 'enterprise',
        passkeys: s.passkeys,
        authenticate: staff,
        cookieSecure,
      }),
      use(staffDevicesRoutes, { devices: s.devices, software: s.software, authenticate: staff }),
      use(staffEnrollmentRoutes, { enrollment: s.enrollment, authenticate: staff }),
      // Live status (server-sent events), in a plugin of its own: it ends its streams on close.
      use(staffDeviceStatusRoutes, {
        feed: s.deviceStatusFeed,
        users: s.users,
        authenticate: staff,
        now: infra.now,
      }),
      use(staffTemplatesRoutes, { templates: s.templates, authenticate: staff }),
      use(staffTemplatePreviewRoutes, { previews: s.templatePreviews, authenticate: staff }),
      use(staffOrganizationsRoutes, {
        organizations: s.organizations,
        invitations: s.invitations,
        authenticate: staff,
      }),
      use(staffMediaRoutes, { library: s.mediaLibrary, authenticate: staff }),
      use(staffStatsRoutes, { stats: s.stats, authenticate: staff }),
      use(staffSoftwareRoutes, { software: s.software, authenticate: staff }),
      use(staffRolloutsRoutes, { rollouts: s.rollouts, authenticate: staff }),
      use(staffPaymentsRoutes, { payments: s.payments, authenticate: staff }),
      use(staffCreditsRoutes, { credits: s.credits, authenticate: staff }),
      use(staffWallRoutes, { wall: s.wall, authenticate: staff }),
      use(staffPrivacyRoutes, { privacy: s.privacy, authenticate: staff }),
    ],
    // The booths' own calls (device credentials, not a person's token).
    '/api/device': [
      use(deviceMediaRoutes, { media: s.media, repository: s.mediaRepository }),
      // Its credential check (flashbooth-booth doctor).
      use(deviceSelfRoutes, { devices: s.devices }),
      // A booth computer's enrollment: no device credentials yet, only a one-time code.
      use(deviceEnrollmentRoutes, { enrollment: s.enrollment }),
    ],
    '/api': [
      use(healthRoutes, {
        checks: [
          { name: 'database', ping: () => infra.database.ping() },
          { name: 'object store', ping: () => infra.storage.ping() },
          { name: 'device broker', ping: () => infra.deviceLink.ping() },
        ],
        // The job list for the health details (names, descriptions, intervals).
        jobs: () => jobList,
        jobRuns: s.jobRuns,
        now: infra.now,
        // Every job's counts: the metrics token (as /metrics) or a super user, nobody else.
        detailsAccess: detailsAccess({
          metricsToken: config.metrics.token,
          authenticate: staff,
          users: s.users,
        }),
      }),
      // Liveness and readiness for balancers and orchestrators (deploy/).
      use(probeRoutes, {
        readiness: [
          { name: 'database', ping: () => infra.database.ping() },
          { name: 'MQTT broker link', ping: () => infra.deviceLink.ping() },
        ],
      }),
    ],
    // A booth computer's one-command install script (no sign-in: the code in the command enrolls).
    '/booth': [use(boothInstallRoutes, { install: s.boothInstall })],
    // Share pages of public items (HTML, no script) with their images and videos.
    '/p': [use(shareRoutes, { share: s.share })],
    // The payment provider's side: PhonePe's webhook, or the sandbox's own checkout page.
    '/api/payments/phonepe':
      provider instanceof PhonePeProvider
        ? [use(phonePeWebhookRoutes, { provider, payments: s.payments })]
        : [],
    [SANDBOX_CHECKOUT_PATH]:
      provider instanceof SandboxProvider
        ? [use(sandboxCheckoutRoutes, { provider, now: infra.now })]
        : [],
    // The development SMS outbox; never in production.
    '/api/dev':
      !config.isProduction && infra.sms.kind === 'outbox'
        ? [use(devSmsRoutes, { outbox: infra.outbox })]
        : [],
    // An external broker's HTTP auth and ACL hooks.
    '/api/mqtt': config.mqtt.hookSecret
      ? [use(mqttHookRoutes, { access: infra.mqttAccess, secret: config.mqtt.hookSecret })]
      : [],
    // The same hooks in the shape of Mosquitto's go-auth plugin (its HTTP backend).
    '/api/mqtt/go-auth': config.mqtt.hookSecret
      ? [use(mqttGoAuthRoutes, { access: infra.mqttAccess, secret: config.mqtt.hookSecret })]
      : [],
    // Only the local store is served by this server; S3 URLs point at the bucket itself.
    '/api/storage': storage instanceof LocalStorage ? [use(storageRoutes, { storage })] : [],
  };
}

/** Mounts every plugin of the table under its prefix, each prefix in a scope of its own. */
export async function registerRoutes(
  app: FastifyInstance,
  table: Record<string, Mount[]>,
): Promise<void> {
  for (const [prefix, mounts] of Object.entries(table)) {
    if (mounts.length === 0) continue;
    await app.register(
      async (scope) => {
        for (const mount of mounts) await mount.register(scope);
      },
      { prefix },
    );
  }
}
