/** The one registry of app paths (spec route map). */
export const paths = {
  home: { path: '/', getHref: () => '/' },
  brochure: { path: '/brochure', getHref: () => '/brochure' },
  terms: { path: '/terms-and-conditions', getHref: () => '/terms-and-conditions' },
  refund: { path: '/refund-policy', getHref: () => '/refund-policy' },
  privacy: { path: '/privacy-policy', getHref: () => '/privacy-policy' },
  paymentStatus: { path: '/payment-status', getHref: () => '/payment-status' },
  /** A venue's kiosk wall for a screen (beyond the spec): open to everyone, full screen. */
  kioskWall: { path: '/wall/:orgId', getHref: (orgId: string | number) => `/wall/${orgId}` },
  regular: {
    login: { path: '/regular/login', getHref: () => '/regular/login' },
    profile: { path: '/regular/profile', getHref: () => '/regular/profile' },
    wall: { path: '/regular/wall', getHref: () => '/regular/wall' },
    media: { path: '/regular/media', getHref: () => '/regular/media' },
    transactions: { path: '/regular/transactions', getHref: () => '/regular/transactions' },
    booth: {
      path: '/regular/photobooths/:deviceId',
      getHref: (deviceId: string | number) => `/regular/photobooths/${deviceId}`,
    },
    capture: {
      path: '/regular/photobooths/:deviceId/capture',
      getHref: (deviceId: string | number, templateId: string | number) =>
        `/regular/photobooths/${deviceId}/capture?template_id=${templateId}`,
    },
    shortLink: { path: '/b/:deviceId', getHref: (deviceId: string | number) => `/b/${deviceId}` },
  },
  enterprise: {
    login: { path: '/enterprise/login', getHref: () => '/enterprise/login' },
    profile: { path: '/enterprise/profile', getHref: () => '/enterprise/profile' },
    organizations: {
      path: '/enterprise/organizations',
      getHref: () => '/enterprise/organizations',
    },
    organization: {
      path: '/enterprise/organizations/:orgId',
      getHref: (orgId: string | number) => `/enterprise/organizations/${orgId}`,
    },
    organizationUsers: {
      path: '/enterprise/organizations/:orgId/users',
      getHref: (orgId: string | number) => `/enterprise/organizations/${orgId}/users`,
    },
    organizationGuests: {
      path: '/enterprise/organizations/:orgId/guests',
      getHref: (orgId: string | number) => `/enterprise/organizations/${orgId}/guests`,
    },
    organizationMedia: {
      path: '/enterprise/organizations/:orgId/media',
      getHref: (orgId: string | number) => `/enterprise/organizations/${orgId}/media`,
    },
    /** Organization statistics (issue 13). */
    organizationStats: {
      path: '/enterprise/organizations/:orgId/stats',
      getHref: (orgId: string | number) => `/enterprise/organizations/${orgId}/stats`,
    },
    devices: { path: '/enterprise/devices', getHref: () => '/enterprise/devices' },
    device: {
      path: '/enterprise/devices/:deviceId',
      getHref: (deviceId: string | number) => `/enterprise/devices/${deviceId}`,
    },
    deviceLogs: {
      path: '/enterprise/devices/:deviceId/logs',
      getHref: (deviceId: string | number) => `/enterprise/devices/${deviceId}/logs`,
    },
    /** The booth's printable QR poster (issue 11). */
    devicePoster: {
      path: '/enterprise/devices/:deviceId/poster',
      getHref: (deviceId: string | number) => `/enterprise/devices/${deviceId}/poster`,
    },
    templates: { path: '/enterprise/templates', getHref: () => '/enterprise/templates' },
    /** The spec calls the parameter template_id; the URL is the same. */
    template: {
      path: '/enterprise/templates/:templateId',
      getHref: (templateId: string | number) => `/enterprise/templates/${templateId}`,
    },
    templateOrgs: {
      path: '/enterprise/templates/:templateId/orgs',
      getHref: (templateId: string | number) => `/enterprise/templates/${templateId}/orgs`,
    },
    templateStudio: {
      path: '/enterprise/template-studio',
      getHref: () => '/enterprise/template-studio',
    },
    channels: {
      path: '/enterprise/software/channels',
      getHref: () => '/enterprise/software/channels',
    },
    channel: {
      path: '/enterprise/software/channels/:channelId',
      getHref: (channelId: string | number) => `/enterprise/software/channels/${channelId}`,
    },
    releases: {
      path: '/enterprise/software/releases',
      getHref: () => '/enterprise/software/releases',
    },
    release: {
      path: '/enterprise/software/releases/:releaseId',
      getHref: (releaseId: string | number) => `/enterprise/software/releases/${releaseId}`,
    },
    allMedia: { path: '/enterprise/media/all', getHref: () => '/enterprise/media/all' },
  },
} as const;

/** Paths an unauthenticated person may open (spec: route guard). */
export const PUBLIC_PATHS: readonly string[] = [
  paths.home.path,
  paths.brochure.path,
  paths.regular.login.path,
  paths.enterprise.login.path,
  paths.terms.path,
  paths.refund.path,
  paths.privacy.path,
];
