import type { VisitorDevice, VisitorTemplatePage } from '@flashbooth/contracts';
import { BOOTH_TEMPLATES_PAGE_SIZE } from '@flashbooth/contracts/rules';
import { paiseToRupees } from '../../lib/time.js';
import type { DevicesRepository } from '../devices/devices.repository.js';
import type { ObjectStorage } from '../storage/storage.js';
import type { TemplatesRepository } from './templates.repository.js';
import { visitorTemplatePage } from './templates.service.js';

/** What the booth page's HTML carries: the booth and the first page of its templates. */
export interface BoothPageData {
  device: VisitorDevice;
  templates: VisitorTemplatePage;
}

/**
 * The booth page's content for its server-sent HTML (plugins/web-app.ts): the same answers as
 * the visitor API's GET devices/{id} and the first page of GET devices/{id}/templates (no
 * search), read without a session. The page is the one a visitor opens from the booth's QR code,
 * and it shows only what the booth itself shows on its screen (its name, its venue, its
 * templates), so it needs no caller; the API's own checks still apply to everything after it.
 */
export class BoothPageSource {
  constructor(
    private readonly options: {
      devices: Pick<DevicesRepository, 'findById'>;
      templates: Pick<TemplatesRepository, 'templatesOfOrganization'>;
      storage: Pick<ObjectStorage, 'presignDownload'>;
    },
  ) {}

  /** The booth and its first templates; undefined when no such booth is linked to a venue. */
  async boothPage(deviceId: number): Promise<BoothPageData | undefined> {
    const { devices, templates, storage } = this.options;
    const row = await devices.findById(deviceId);
    if (!row || row.orgId === null) return undefined;
    const limit = BOOTH_TEMPLATES_PAGE_SIZE;
    const rows = await templates.templatesOfOrganization(row.orgId, { limit: limit + 1 });
    return {
      device: {
        id: row.id,
        name: row.name,
        org_name: row.orgName,
        price_rupees: paiseToRupees(row.pricePaise),
        status: row.status,
      },
      templates: await visitorTemplatePage(rows, limit, storage),
    };
  }
}
