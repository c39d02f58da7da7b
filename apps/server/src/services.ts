import { makeLowresPreview } from '@flashbooth/print-composition';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { AppDependencies, Infrastructure } from './infrastructure.js';
import { AuthRepository } from './modules/auth/auth.repository.js';
import { AuthService } from './modules/auth/auth.service.js';
import { DeviceStatusFeed } from './modules/devices/device-status-feed.js';
import { DevicesRepository } from './modules/devices/devices.repository.js';
import { DevicesService } from './modules/devices/devices.service.js';
import { EnrollmentRepository } from './modules/enrollment/enrollment.repository.js';
import { EnrollmentService } from './modules/enrollment/enrollment.service.js';
import { JobPlansRepository } from './modules/health/job-plans.repository.js';
import { JobRunsRepository } from './modules/health/job-runs.repository.js';
import { CaptureService } from './modules/media/capture.service.js';
import { DeliveryFailuresRepository } from './modules/media/delivery-failures.repository.js';
import { DeliveryRepository } from './modules/media/delivery.repository.js';
import { DeliveryService } from './modules/media/delivery.service.js';
import { CapturesRepository } from './modules/media/captures.repository.js';
import { VisitsRepository } from './modules/visits/visits.repository.js';
import { VisitsService } from './modules/visits/visits.service.js';
import { MediaLibraryRepository } from './modules/media/media-library.repository.js';
import { MediaLibraryService } from './modules/media/media-library.service.js';
import { MediaRepository } from './modules/media/media.repository.js';
import { MediaService } from './modules/media/media.service.js';
import { PreviewWorker } from './modules/media/preview-worker.js';
import { OrganizationsRepository } from './modules/organizations/organizations.repository.js';
import { InvitationsService } from './modules/organizations/invitations.service.js';
import { OrganizationsService } from './modules/organizations/organizations.service.js';
import { StatsRepository } from './modules/stats/stats.repository.js';
import { StatsService } from './modules/stats/stats.service.js';
import { PasskeyChallenges } from './modules/passkeys/passkey-challenge.js';
import { PasskeysRepository } from './modules/passkeys/passkeys.repository.js';
import { PasskeysService } from './modules/passkeys/passkeys.service.js';
import { AccountErasure } from './modules/privacy/account-erasure.js';
import { DataExportBuilder } from './modules/privacy/data-export.js';
import { MediaEraser } from './modules/privacy/media-eraser.js';
import { ObjectCleanup } from './modules/storage/object-cleanup.js';
import { PrivacyRepository } from './modules/privacy/privacy.repository.js';
import { PrivacyService } from './modules/privacy/privacy.service.js';
import { createPaymentProvider } from './modules/payments/create-payment-provider.js';
import { CreditsRepository } from './modules/payments/credits.repository.js';
import { CreditsService } from './modules/payments/credits.service.js';
import type { PaymentProvider } from './modules/payments/payment-provider.js';
import { PaymentsRepository } from './modules/payments/payments.repository.js';
import { RefundsRepository } from './modules/payments/refunds.repository.js';
import { PaymentsService } from './modules/payments/payments.service.js';
import { SandboxProvider } from './modules/payments/sandbox.provider.js';
import { RolloutsRepository } from './modules/rollouts/rollouts.repository.js';
import { RolloutDriver } from './modules/rollouts/rollout-driver.js';
import { RolloutsService } from './modules/rollouts/rollouts.service.js';
import { SoftwareRepository } from './modules/software/software.repository.js';
import { SoftwareService } from './modules/software/software.service.js';
import { BoothInstallService } from './modules/software/booth-install.js';
import { TemplatesRepository } from './modules/templates/templates.repository.js';
import { BoothPageSource } from './modules/templates/booth-page-source.js';
import { TemplatePreviewService } from './modules/templates/templates.preview.js';
import { TemplatesService } from './modules/templates/templates.service.js';
import { UsersRepository } from './modules/users/users.repository.js';
import { UsersService } from './modules/users/users.service.js';
import { ShareImages } from './modules/share/share-images.js';
import { RetentionRepository } from './modules/retention/retention.repository.js';
import { RetentionService } from './modules/retention/retention.service.js';
import { ShareRepository } from './modules/share/share.repository.js';
import { ShareService } from './modules/share/share.service.js';
import { KioskWallService } from './modules/wall/kiosk-wall.service.js';
import { WallCache } from './modules/wall/wall-cache.js';
import { WallFeed } from './modules/wall/wall-feed.js';
import { KioskWallRepository, WallRepository } from './modules/wall/wall.repository.js';
import { WallService } from './modules/wall/wall.service.js';
import { AccessTokens } from './security/access-tokens.js';
import { deriveKey } from './security/keys.js';

/** Every service of the app, built once in dependency order (no forward references). */
export interface Services {
  tokens: AccessTokens;
  usersRepository: UsersRepository;
  users: UsersService;
  auth: AuthService;
  passkeys: PasskeysService;
  devices: DevicesService;
  /** One-time enrollment codes of booth computers (issue 22). */
  enrollment: EnrollmentService;
  /** Recorded device status changes, for the live status streams (shared between instances). */
  deviceStatusFeed: DeviceStatusFeed;
  templates: TemplatesService;
  templatePreviews: TemplatePreviewService;
  /** The booth page's server-sent content (plugins/web-app.ts). */
  boothPages: BoothPageSource;
  organizations: OrganizationsService;
  invitations: InvitationsService;
  mediaRepository: MediaRepository;
  previews: PreviewWorker;
  media: MediaService;
  /** The staff media views (an organization's repost-allowed media, All Media). */
  mediaLibrary: MediaLibraryService;
  /** The public wall, likes, comments and their moderation. */
  wall: WallService;
  /** The wall's changes for the kiosk walls' live streams (shared between instances). */
  wallFeed: WallFeed;
  wallCache: WallCache;
  /** An organization's kiosk wall (`/wall/{orgId}`). */
  kioskWall: KioskWallService;
  /** Share pages of public items (`/p/{public_id}`), their images and videos. */
  share: ShareService;
  captures: CaptureService;
  /** A visitor's visit at a booth: where they are now (issue 37). */
  visits: VisitsService;
  /** Delivery times per booth and the late sweep (issue 22). */
  deliveries: DeliveryService;
  software: SoftwareService;
  /** The booth's install script and the built-in agent release it installs (issue 39). */
  boothInstall: BoothInstallService;
  rollouts: RolloutsService;
  rolloutDriver: RolloutDriver;
  paymentProvider: PaymentProvider;
  payments: PaymentsService;
  credits: CreditsService;
  stats: StatsService;
  /** Migration 0023's counters (statistics, list totals): the `counters-rebuild` job. */
  statsCounters: StatsRepository;
  /** Objects the store should no longer hold (erased records, unconfirmed uploads, old exports). */
  objectCleanup: ObjectCleanup;
  /** Deletes media items with their likes, comments and objects in the store. */
  mediaEraser: MediaEraser;
  /** Erases one account and everything it holds; payments kept without the person. */
  accountErasure: AccountErasure;
  /** Builds "Download my data" ZIPs in the background and deletes them when they expire. */
  dataExports: DataExportBuilder;
  /** A person's data export and account erasure, by the person or by a super user. */
  privacy: PrivacyService;
  /** Media, inactive accounts and payment records deleted once their time is up (with notices). */
  retention: RetentionService;
  /** The app's clock (injectable in tests), for the background jobs. */
  clock: () => Date;
  /** Each background job's last run and schedule claim (GET /api/health/details). */
  jobRuns: JobRunsRepository;
  /** Read-only questions behind the dry runs of jobs (`npm run jobs -- <name> --dry-run`). */
  jobPlans: JobPlansRepository;
}

/** The object graph: repositories over the database, services over repositories and the outside. */
export function createServices(
  config: Config,
  infra: Infrastructure,
  deps: AppDependencies,
  log: FastifyBaseLogger,
): Services {
  const { database, storage, sms, deviceLink: link, now } = infra;
  const db = database.db;
  const commandTimeoutMs = config.devices.commandTimeoutMs;

  const tokens = new AccessTokens(config.authSecret, config.auth.accessTokenTtlSeconds, now);
  const usersRepository = new UsersRepository(db);
  const users = new UsersService(usersRepository);
  const passkeysRepository = new PasskeysRepository(db);
  const auth = new AuthService({
    db,
    auth: new AuthRepository(db),
    users: usersRepository,
    usersService: users,
    sms,
    tokens,
    otpKey: deriveKey(config.authSecret, 'otp'),
    policy: config.auth,
    // Sign-in links in SMS lead here; without it, to the request's own origin (development).
    publicUrl: config.publicUrl,
    now,
    log,
    hasPasskey: (userId) => passkeysRepository.exists(userId),
  });
  const passkeys = new PasskeysService({
    db,
    repository: passkeysRepository,
    users,
    auth,
    // A challenge is good for 5 minutes (also the browser's timeout), once.
    challenges: new PasskeyChallenges(
      deriveKey(config.authSecret, 'passkey-challenge'),
      300_000,
      now,
    ),
    webauthn: config.webauthn,
    userHandleKey: deriveKey(config.authSecret, 'passkey-user-handle'),
    now,
    log,
  });

  // The store's cleanup queue: erased and deleted records' objects, uploads never confirmed.
  const objectCleanup = new ObjectCleanup({ db, storage, now, log });
  const devicesRepository = new DevicesRepository(db);
  const templatesRepository = new TemplatesRepository(db);
  const templates = new TemplatesService({
    templates: templatesRepository,
    users,
    storage,
    cleanup: objectCleanup,
    devices: devicesRepository,
    now,
    log,
  });
  const boothPages = new BoothPageSource({
    devices: devicesRepository,
    templates: templatesRepository,
    storage,
  });
  const templatePreviews = new TemplatePreviewService({
    templates,
    repository: templatesRepository,
    storage,
    log,
  });

  const organizationsRepository = new OrganizationsRepository(db);
  const invitations = new InvitationsService({
    organizations: organizationsRepository,
    users,
    accounts: usersRepository,
    sms,
    // Invitation SMS are throttled per phone like sign-in codes, with their own count.
    invitationSms: {
      limitPerPhone: config.auth.sendLimitPerPhone,
      windowSeconds: config.auth.sendWindowSeconds,
      allowedCountryCodes: config.auth.allowedCountryCodes,
      signInUrl: `${config.publicUrl ?? ''}/enterprise/login`,
    },
    inviteTtlMs: config.privacy.inviteTtlDays * 86_400_000,
    now,
    log,
  });
  const organizations = new OrganizationsService({
    organizations: organizationsRepository,
    users,
    invitations,
    storage,
    cleanup: objectCleanup,
    now,
    log,
  });

  const mediaRepository = new MediaRepository(db);
  // Previews are made after the upload confirmation answers; every instance sweeps for those
  // still missing (a crash, a retry), each claimed by one instance at a time.
  const previews = new PreviewWorker({
    media: mediaRepository,
    storage,
    makePreview: deps.makePreview ?? makeLowresPreview,
    concurrency: config.previews.concurrency,
    leaseMs: config.previews.leaseMs,
    now,
    log,
  });
  const wallFeed = new WallFeed({ database, log });
  const media = new MediaService({
    media: mediaRepository,
    users,
    storage,
    previews,
    now,
    wallChanges: wallFeed,
  });
  const wallRepository = new WallRepository(db, config.wallCachePages > 0);
  const wallCache = new WallCache({ maxPages: config.wallCachePages, database, log });
  const wall = new WallService({
    wall: wallRepository,
    users,
    storage,
    now,
    changes: wallFeed,
    cache: wallCache,
  });
  const kioskWall = new KioskWallService({ repository: new KioskWallRepository(db), storage });
  const share = new ShareService({
    share: new ShareRepository(db),
    wall: wallRepository,
    images: new ShareImages(storage),
    storage,
    publicUrl: config.publicUrl,
  });
  const mediaLibrary = new MediaLibraryService({
    library: new MediaLibraryRepository(db),
    users,
    storage,
  });
  const captures = new CaptureService({
    media: mediaRepository,
    captures: new CapturesRepository(db),
    devices: devicesRepository,
    templates: templatesRepository,
    users,
    storage,
    link,
    commandTimeoutMs,
    deliveryMarginMs: config.captures.deliveryMarginMs,
    deliveryDeadlineMs: config.captures.deliveryDeadlineMs,
    providerName: config.payments.provider,
    now,
    log,
  });

  const visits = new VisitsService({
    repository: new VisitsRepository(db),
    devices: devicesRepository,
    templates: {
      exists: async (templateId) => (await templatesRepository.findById(templateId)) !== undefined,
      offeredBy: (templateId, orgId) => mediaRepository.templateOfferedBy(templateId, orgId),
    },
    now,
  });

  const deviceStatusFeed = new DeviceStatusFeed({ database, log });
  const boothAddresses = {
    publicMqttUrl: config.mqtt.boothUrl,
    externalMqttUrl: config.mqtt.url,
    // The embedded broker knows its port only once it listens.
    embeddedBrokerUrl: () => {
      try {
        return link.brokerUrl;
      } catch {
        return undefined;
      }
    },
    publicUrl: config.publicUrl,
  };
  const deliveries = new DeliveryService({
    repository: new DeliveryRepository(db),
    failures: new DeliveryFailuresRepository(db),
    // The payments service is made further down; the delivery job only calls it later.
    payments: { sendDeliveryRefund: (...args) => payments.sendDeliveryRefund(...args) },
    sms,
    deadlineMinutes: Math.round(config.captures.deliveryDeadlineMs / 60_000),
    now,
    log,
  });
  const devices = new DevicesService({
    devices: devicesRepository,
    deliveries,
    feed: deviceStatusFeed,
    boothAddresses,
    users,
    link,
    // A booth's error report that ends a capture gives it back.
    captures,
    commandTimeoutMs,
    now,
    log,
  });
  const enrollment = new EnrollmentService({
    db,
    repository: new EnrollmentRepository(db),
    users,
    boothAddresses,
    codeKey: deriveKey(config.authSecret, 'device-enrollment'),
    now,
    log,
  });
  const software = new SoftwareService({
    software: new SoftwareRepository(db),
    users,
    storage,
    cleanup: objectCleanup,
    devices: devicesRepository,
    deviceDto: (row) => devices.toDto(row),
    link,
    updateTimeoutMs: config.devices.updateTimeoutMs,
    now,
    log,
  });

  const boothInstall = new BoothInstallService({
    software: new SoftwareRepository(db),
    storage,
    boothAddresses,
    now,
    log,
  });

  // Staged rollouts: the driver job sends the channel's release booth by booth (modules/rollouts).
  const rolloutsRepository = new RolloutsRepository(db);
  const rollouts = new RolloutsService({
    rollouts: rolloutsRepository,
    users,
    policy: config.rollouts,
    now,
    log,
  });
  const rolloutDriver = new RolloutDriver({
    rollouts: rolloutsRepository,
    storage,
    link,
    recordVersion: async (deviceId, version) => {
      await devicesRepository.update(deviceId, { softwareVersion: version });
    },
    updateTimeoutMs: config.devices.updateTimeoutMs,
    policy: { ...config.rollouts, batchSize: 50 },
    now,
    log,
  });

  const paymentProvider = createPaymentProvider(config, db, now, log);
  const payments = new PaymentsService({
    repository: new PaymentsRepository(db),
    refunds: new RefundsRepository(db),
    provider: paymentProvider,
    users,
    now,
    log,
    expireAfterSeconds: config.payments.expireAfterSeconds,
    reconcileIntervalSeconds: config.payments.reconcileIntervalSeconds,
    unusedCreditMinutes: config.payments.unusedCreditMinutes,
    // A transaction whose capture failed its delivery promise carries a notice of the refund.
    deliveryNotices: new DeliveryFailuresRepository(db),
    deliveryDeadlineMinutes: Math.round(config.captures.deliveryDeadlineMs / 60_000),
    sms,
    phoneOf: async (userId) => (await usersRepository.findById(userId))?.phone ?? null,
    returnOrigins: [
      ...config.payments.returnOrigins,
      ...(config.publicUrl ? [config.publicUrl] : []),
    ],
  });
  // The sandbox checkout page tells the service which order to look at after a visitor's choice.
  if (paymentProvider instanceof SandboxProvider) {
    paymentProvider.onHint((hint) => payments.hint(hint));
  }
  const credits = new CreditsService({ repository: new CreditsRepository(db), users, now, log });
  const statsCounters = new StatsRepository(db);
  const stats = new StatsService({ repository: statsCounters, users });

  const mediaEraser = new MediaEraser({ db, cleanup: objectCleanup, now, log });
  const accountErasure = new AccountErasure({
    db,
    mediaEraser,
    cleanup: objectCleanup,
    now,
    log,
  });
  const privacyRepository = new PrivacyRepository(db);
  const dataExports = new DataExportBuilder({
    db,
    repository: privacyRepository,
    storage,
    cleanup: objectCleanup,
    ttlMs: config.privacy.dataExportTtlHours * 3_600_000,
    now,
    log,
  });
  const privacy = new PrivacyService({
    db,
    repository: privacyRepository,
    builder: dataExports,
    erasure: accountErasure,
    users,
    storage,
    sms,
    // Erasure codes have their own key: a stored hash is useless as a sign-in code and back.
    codeKey: deriveKey(config.authSecret, 'account-erasure-code'),
    codeTtlSeconds: config.auth.otpTtlSeconds,
    codeMaxAttempts: config.auth.otpMaxAttempts,
    now,
    log,
  });
  const retention = new RetentionService({
    repository: new RetentionRepository(db),
    mediaEraser,
    accountErasure,
    sms,
    mediaDays: config.retention.mediaDays,
    paymentRecordYears: config.retention.paymentRecordYears,
    now,
    log,
  });

  return {
    tokens,
    usersRepository,
    users,
    auth,
    passkeys,
    devices,
    enrollment,
    deviceStatusFeed,
    templates,
    templatePreviews,
    boothPages,
    organizations,
    invitations,
    mediaRepository,
    previews,
    media,
    mediaLibrary,
    wall,
    wallFeed,
    wallCache,
    kioskWall,
    share,
    captures,
    visits,
    deliveries,
    software,
    boothInstall,
    rollouts,
    rolloutDriver,
    paymentProvider,
    payments,
    credits,
    stats,
    statsCounters,
    objectCleanup,
    mediaEraser,
    accountErasure,
    retention,
    dataExports,
    privacy,
    clock: now,
    jobRuns: new JobRunsRepository(db),
    jobPlans: new JobPlansRepository(db),
  };
}
