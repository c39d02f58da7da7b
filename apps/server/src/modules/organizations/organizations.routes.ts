import {
  GuestListSchema,
  guestsCsvFilename,
  GuestsExportQuerySchema,
  GuestsQuerySchema,
  IdParamSchema,
  InviteOutcomeSchema,
  InviteResponseSchema,
  LogoConfirmSchema,
  LogoPresignRequestSchema,
  LogoPresignSchema,
  OrganizationCreateSchema,
  OrganizationInvitationListSchema,
  OrganizationInviteCreateSchema,
  OrganizationInviteParamsSchema,
  OrganizationListSchema,
  OrganizationPatchSchema,
  OrganizationSchema,
  OrganizationUserListSchema,
  OrganizationUserParamsSchema,
  OrganizationUserPatchSchema,
  OrganizationUserSchema,
  OrganizationsQuerySchema,
  OrganizationUsersQuerySchema,
  SentInvitationSchema,
  UserIdParamSchema,
} from '@flashbooth/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Authenticate } from '../../security/authenticate.js';
import { attachmentDisposition } from '../storage/storage.js';
import { guestsCsv } from './guests-csv.js';
import type { InvitationsService } from './invitations.service.js';
import type { OrganizationsService } from './organizations.service.js';

/**
 * Staff (/api/enterprise): the spec's Organizations calls (without stats and repost-allowed
 * media, which come later), GET users/{id}/invites, and the guest CSV export.
 */
export const staffOrganizationsRoutes: FastifyPluginAsyncZod<{
  organizations: OrganizationsService;
  invitations: InvitationsService;
  authenticate: Authenticate;
}> = async (app, { organizations, invitations, authenticate }) => {
  const tags = ['enterprise organizations'];
  const security = [{ bearerAuth: [] }];
  app.addHook('onRequest', authenticate);

  // ---- organizations ----

  app.post(
    '/organizations',
    {
      schema: {
        tags,
        security,
        summary: 'Create an organization (super user / product admin)',
        body: OrganizationCreateSchema,
        response: { 201: OrganizationSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await organizations.create(request.caller!, request.body)),
  );

  app.get(
    '/organizations',
    {
      schema: {
        tags,
        security,
        summary: "Organizations by name (all for admins, else the caller's own); 10 a page",
        querystring: OrganizationsQuerySchema,
        response: { 200: OrganizationListSchema },
      },
    },
    (request) => organizations.list(request.caller!, request.query),
  );

  app.get(
    '/organizations/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Read an organization (its members; super users and product admins any)',
        params: IdParamSchema,
        response: { 200: OrganizationSchema },
      },
    },
    (request) => organizations.get(request.caller!, request.params.id),
  );

  app.patch(
    '/organizations/:id',
    {
      schema: {
        tags,
        security,
        summary: "Change the changed ones of name, phone, email, address (the org's admins)",
        params: IdParamSchema,
        body: OrganizationPatchSchema,
        response: { 200: OrganizationSchema },
      },
    },
    (request) => organizations.patch(request.caller!, request.params.id, request.body),
  );

  app.delete(
    '/organizations/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Delete an organization (super user / product admin)',
        description:
          'Deletes the organization and, with it, its memberships, its invitations (pending or ' +
          'answered) and its template associations. Its devices stay registered but are ' +
          'unlinked (no organization). Visitors keep their media: photos taken at its booths ' +
          'stay in their My Media with no organization (and no longer count as its guests). ' +
          'The stored logo is deleted. This cannot be undone.',
        params: IdParamSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await organizations.remove(request.caller!, request.params.id);
      return reply.status(204).send(null);
    },
  );

  // ---- logo ----

  app.post(
    '/organizations/:id/logo/presigned_upload',
    {
      schema: {
        tags,
        security,
        summary: "A 15-minute upload URL for a JPEG or PNG logo, at most 5 MB (the org's admins)",
        params: IdParamSchema,
        body: LogoPresignRequestSchema,
        response: { 200: LogoPresignSchema },
      },
    },
    (request) => organizations.presignLogo(request.caller!, request.params.id, request.body),
  );

  app.post(
    '/organizations/:id/logo/confirm',
    {
      schema: {
        tags,
        security,
        summary: 'Use the uploaded logo (checked: this organization, at most 5 MB, JPEG or PNG)',
        params: IdParamSchema,
        body: LogoConfirmSchema,
        response: { 200: OrganizationSchema },
      },
    },
    (request) =>
      organizations.confirmLogo(request.caller!, request.params.id, request.body.logo_key),
  );

  // ---- people ----

  app.get(
    '/organizations/:id/users',
    {
      schema: {
        tags,
        security,
        summary: 'A page of members and every pending invitation (search: name or phone)',
        params: IdParamSchema,
        querystring: OrganizationUsersQuerySchema,
        response: { 200: OrganizationUserListSchema },
      },
    },
    (request) => organizations.users(request.caller!, request.params.id, request.query),
  );

  app.get(
    '/organizations/:id/users/:userId',
    {
      schema: {
        tags,
        security,
        summary: 'Read one member',
        params: OrganizationUserParamsSchema,
        response: { 200: OrganizationUserSchema },
      },
    },
    (request) => organizations.user(request.caller!, request.params.id, request.params.userId),
  );

  app.patch(
    '/organizations/:id/users/:userId',
    {
      schema: {
        tags,
        security,
        summary: "Change a member's role, member or admin (super user / product admin; not own)",
        params: OrganizationUserParamsSchema,
        body: OrganizationUserPatchSchema,
        response: { 200: OrganizationUserSchema },
      },
    },
    (request) =>
      organizations.setRole(
        request.caller!,
        request.params.id,
        request.params.userId,
        request.body.role,
      ),
  );

  app.delete(
    '/organizations/:id/users/:userId',
    {
      schema: {
        tags,
        security,
        summary: 'Remove a member (super user / product admin; not oneself)',
        params: OrganizationUserParamsSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await organizations.removeUser(request.caller!, request.params.id, request.params.userId);
      return reply.status(204).send(null);
    },
  );

  // ---- invitations ----

  app.get(
    '/users/:id/invites',
    {
      schema: {
        tags,
        security,
        summary: "Pending invitations of a staff member (`self`; another's for admins only)",
        params: UserIdParamSchema,
        response: { 200: OrganizationInvitationListSchema },
      },
    },
    (request) => invitations.invitationsOf(request.caller!, request.params.id),
  );

  app.post(
    '/organizations/:id/invites',
    {
      schema: {
        tags,
        security,
        summary: 'Invite a phone with a role (super user / product admin); the invitee gets an SMS',
        description:
          'The phone may carry spaces, dashes or brackets ("+91-98765 43210"); everything but ' +
          'digits and plus is removed and the rest must be E.164. The invitation waits for a ' +
          'phone with no staff account yet. 409 when the phone is already a member or already ' +
          'has a pending invitation here. The SMS is throttled per phone and never fails the ' +
          'invitation.',
        params: IdParamSchema,
        body: OrganizationInviteCreateSchema,
        response: { 201: SentInvitationSchema },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await invitations.invite(request.caller!, request.params.id, request.body)),
  );

  for (const [path, status] of [
    ['accept', 'accepted'],
    ['deny', 'denied'],
  ] as const) {
    app.post(
      `/organizations/:id/invites/${path}`,
      {
        schema: {
          tags,
          security,
          summary:
            status === 'accepted'
              ? 'Accept your invitation: you join with the invited role'
              : 'Deny your invitation',
          description:
            'By the invitee only. The organization in the path names the invitation (a phone ' +
            'has at most one pending invitation per organization); `invite_id` may be sent too ' +
            'and must then be that invitation. 404 when you have none there, 409 when it was ' +
            'already answered or cancelled.',
          params: IdParamSchema,
          body: InviteResponseSchema,
          response: { 200: InviteOutcomeSchema },
        },
      },
      (request) => invitations.respond(request.caller!, request.params.id, request.body, status),
    );
  }

  app.delete(
    '/organizations/:id/invites/:inviteId',
    {
      schema: {
        tags,
        security,
        summary: 'Cancel a pending invitation (super user / product admin)',
        params: OrganizationInviteParamsSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await invitations.cancelInvitation(
        request.caller!,
        request.params.id,
        request.params.inviteId,
      );
      return reply.status(204).send(null);
    },
  );

  // ---- guests ----

  app.get(
    '/organizations/:id/guests',
    {
      schema: {
        tags,
        security,
        summary:
          'Visitors who captured at its booths, latest visit first (search: name, phone, email)',
        params: IdParamSchema,
        querystring: GuestsQuerySchema,
        response: { 200: GuestListSchema },
      },
    },
    (request) => organizations.guests(request.caller!, request.params.id, request.query),
  );

  app.get(
    '/organizations/:id/guests/export.csv',
    {
      schema: {
        tags,
        security,
        summary: "Every guest as CSV, same search (the org's admins, super users, product admins)",
        description:
          'text/csv (UTF-8 with a byte order mark), columns id, name, email, phone, last_visit, ' +
          'by guest id; streamed. Names and emails a spreadsheet would run as a formula start ' +
          'with an apostrophe.',
        params: IdParamSchema,
        querystring: GuestsExportQuerySchema,
      },
    },
    async (request, reply) => {
      const { organization, guests } = await organizations.exportGuests(
        request.caller!,
        request.params.id,
        request.query.search || undefined,
      );
      const csv = guestsCsv(guests, (error) =>
        request.log.error({ err: error }, 'guest CSV export failed while streaming'),
      );
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', attachmentDisposition(guestsCsvFilename(organization.name)))
        .header('cache-control', 'no-store')
        .send(csv);
    },
  );
};
