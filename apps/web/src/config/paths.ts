/** The one registry of app paths (spec route map). */
export const paths = {
  home: { path: '/', getHref: () => '/' },
  brochure: { path: '/brochure', getHref: () => '/brochure' },
  terms: { path: '/terms-and-conditions', getHref: () => '/terms-and-conditions' },
  refund: { path: '/refund-policy', getHref: () => '/refund-policy' },
  privacy: { path: '/privacy-policy', getHref: () => '/privacy-policy' },
  paymentStatus: { path: '/payment-status', getHref: () => '/payment-status' },
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
    devices: { path: '/enterprise/devices', getHref: () => '/enterprise/devices' },
    templates: { path: '/enterprise/templates', getHref: () => '/enterprise/templates' },
    templateStudio: {
      path: '/enterprise/template-studio',
      getHref: () => '/enterprise/template-studio',
    },
    channels: {
      path: '/enterprise/software/channels',
      getHref: () => '/enterprise/software/channels',
    },
    releases: {
      path: '/enterprise/software/releases',
      getHref: () => '/enterprise/software/releases',
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
