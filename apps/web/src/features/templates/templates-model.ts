import type { Template, TemplateOrientation } from '@flashbooth/contracts';
import { TEMPLATE_MESSAGES, TEMPLATES_PAGE_SIZE } from '@flashbooth/contracts/rules';
import type { FormOutcome } from '@/components/console/use-form-submit';

/** Spec section 9: templates are listed 10 to a page. */
export { TEMPLATES_PAGE_SIZE };

/** Spec sections 4 and 9: messages on template pages hide after 3 s (the return: the kit's). */
export const TEMPLATE_STATUS_MS = 3000;

/** Spec section 9: 6 skeleton organization placeholders. */
export const TEMPLATE_ORG_SKELETONS = 6;

/** The spec's texts for the template screens (sections 2, 5 and 8), and the screens' own. */
export const TEMPLATE_TEXT = {
  loadFailed: 'Failed to load templates. Please try again.',
  createFailed: 'Failed to create template.',
  loadDetailsFailed: 'Failed to load template details. Please try again.',
  orgsLoadFailed: 'Failed to load associated organizations. Please try again.',
  associateFailed: 'Failed to associate organization.',
  removeFailed: 'Failed to remove organization.',
  empty: TEMPLATE_MESSAGES.empty,
  noOrgs: TEMPLATE_MESSAGES.noOrgs,
  nameRequired: TEMPLATE_MESSAGES.nameRequired,
  orgIdRequired: TEMPLATE_MESSAGES.orgIdRequired,
  noOrgSelected: TEMPLATE_MESSAGES.noOrgSelected,
  noSample: 'No sample',
  noLogo: 'No logo',
  /** The title while (or when) the template's name does not load. */
  fallbackTitle: 'Template',
  associated: (orgId: string | number) => `Template associated with organization "${orgId}".`,
  removed: (name: string) => `Template removed from organization "${name}".`,
  // Beyond the spec: what the screens say besides.
  noSearchMatch: (search: string) => `No templates match "${search}".`,
  created: (name: string) => `Template "${name}" created.`,
  removeConfirm: (name: string) =>
    `Are you sure you want to remove this template from organization "${name}"? Its booths will no longer offer it.`,
} as const;

/** "Org {id}" when an organization has no name. */
export function orgLabel(org: { id: number; name: string | null | undefined }): string {
  return org.name?.trim() ? org.name : `Org ${org.id}`;
}

/** The template's name as a title, or "Template" while it loads or when it failed. */
export function templateTitle(template: Pick<Template, 'name'> | undefined): string {
  return template?.name || TEMPLATE_TEXT.fallbackTitle;
}

/**
 * A card in the template grid (spec section 2): landscape cards span two columns at 3:2, portrait
 * cards one column at 2:3.
 */
export function cardLayout(orientation: TemplateOrientation): {
  span: 1 | 2;
  aspectRatio: '3 / 2' | '2 / 3';
} {
  return orientation === 'landscape'
    ? { span: 2, aspectRatio: '3 / 2' }
    : { span: 1, aspectRatio: '2 / 3' };
}

export interface TemplateCreateForm {
  name: string;
  orientation: TemplateOrientation;
}

/** Spec: portrait by default. */
export const EMPTY_TEMPLATE_FORM: TemplateCreateForm = { name: '', orientation: 'portrait' };

/** Create stays disabled while the name is empty after trimming. */
export function canCreateTemplate(form: TemplateCreateForm): boolean {
  return form.name.trim().length > 0;
}

/** The body of POST templates, or the spec's message ("Template name is required."). */
export function createTemplateBody(form: TemplateCreateForm): FormOutcome<TemplateCreateForm> {
  const name = form.name.trim();
  if (!name) return { kind: 'invalid', message: TEMPLATE_TEXT.nameRequired };
  return { kind: 'ok', body: { name, orientation: form.orientation } };
}

/**
 * The Associate dialog's organization id (trimmed; spec section 5), or the message: required,
 * and beyond the spec a positive whole number (the server would refuse anything else).
 */
export function associateOrgId(
  text: string,
): { kind: 'ok'; orgId: string } | { kind: 'invalid'; message: string } {
  const orgId = text.trim();
  if (!orgId) return { kind: 'invalid', message: TEMPLATE_TEXT.orgIdRequired };
  if (!/^[1-9]\d{0,9}$/.test(orgId)) {
    return { kind: 'invalid', message: 'Organization ID must be a positive whole number.' };
  }
  return { kind: 'ok', orgId };
}
