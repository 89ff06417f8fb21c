import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as common from 'oci-common';
import { ociError, startTestEmulator, type TestEmulator } from './support/emulator';

/** Every commercial-realm (oc1) region the official SDK knows, with the key its OCIDs carry. */
function sdkCommercialRegions(): { regionId: string; regionCode: string | undefined }[] {
  return Object.values(common.Region)
    .filter((value): value is common.Region => value instanceof common.Region && value.realm.realmId === 'oc1')
    .map((region) => ({ regionId: region.regionId, regionCode: region.regionCode }));
}

describe('regions', () => {
  let t: TestEmulator;
  before(async () => {
    t = await startTestEmulator();
  });
  after(() => t.close());

  it('serves every commercial region of oci-common, minting OCIDs with its region key', async () => {
    const regions = sdkCommercialRegions();
    assert.ok(regions.length > 40, `oci-common lists ${regions.length} oc1 regions`);
    const compartmentId = t.identity.tenancyId;
    for (const { regionId, regionCode } of regions) {
      const language = t.language(regionId);
      const { project } = await language.createProject({ createProjectDetails: { compartmentId } });
      assert.equal(project.id.split('.')[3], regionCode, regionId);
      const listed = await language.listProjects({ compartmentId, projectId: project.id });
      assert.equal(listed.projectCollection.items.length, 1, regionId);
    }
  });

  it('answers a region OCI does not have with 404 NotFound', async () => {
    const error = await ociError(() =>
      t.language('xx-nowhere-1').listProjects({ compartmentId: t.identity.tenancyId }),
    );
    assert.deepEqual([error.statusCode, error.serviceCode], [404, 'NotFound']);
    // Whatever the request holds: the region is looked up before the request is validated.
    const noCompartment = await ociError(() => t.dr('xx-nowhere-1').listDrPlans({} as never));
    assert.deepEqual([noCompartment.statusCode, noCompartment.serviceCode], [404, 'NotFound']);
    const emptyCreate = await ociError(() => t.dr('xx-nowhere-1').createDrPlan({ createDrPlanDetails: {} as never }));
    assert.deepEqual([emptyCreate.statusCode, emptyCreate.serviceCode], [404, 'NotFound']);
  });
});
