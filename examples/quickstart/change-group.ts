// Changes the members of the sandbox's PRIMARY protection group, as someone would in the OCI
// console, so that OCI marks the DR plans of the pair NEEDS_ATTENTION / NEEDS_REFRESH: the state
// in which `refreshTrigger` (then `verifyTrigger`) has something to do. It starts the embedded
// emulator on this program's sandbox (`.ocikit/emulator/`) and talks to it with the official OCI
// SDK, as any OCI client would. Run it between two `ocikit` commands, not during one.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import * as common from 'oci-common';
import { DisasterRecoveryClient, models } from 'oci-disasterrecovery';
import { startEmulator } from '@ocikit/emulator';

async function main(): Promise<void> {
  const emulator = await startEmulator({ dataDir: join(__dirname, '.ocikit', 'emulator'), seed: 'sandbox' });
  const client = new DisasterRecoveryClient({
    authenticationDetailsProvider: new common.ConfigFileAuthenticationDetailsProvider(emulator.configFile, 'DEFAULT'),
  });
  try {
    const sandbox = emulator.sandbox!;
    client.endpoint = `${emulator.url}/r/${sandbox.homeRegion}`;
    const groupId = sandbox.disasterRecovery.primaryProtectionGroupId;
    const { drProtectionGroup: group } = await client.getDrProtectionGroup({ drProtectionGroupId: groupId });
    // Each member as it is (its settings too, such as a compute instance's isMovable), plus one.
    const members = (group.members ?? []).map((m) => ({ ...m }));
    // One more volume group in the group's region (its OCID carries the region key of the existing ones).
    const regionKey = members[0]?.memberId.split('.')[3] ?? 'phx';
    const volumeGroupId = `ocid1.volumegroup.oc1.${regionKey}.amaaaaaa${randomBytes(26).toString('hex')}`;
    const r = await client.updateDrProtectionGroup({
      drProtectionGroupId: groupId,
      updateDrProtectionGroupDetails: {
        members: [
          ...members,
          { memberId: volumeGroupId, memberType: 'VOLUME_GROUP' },
        ] as models.UpdateDrProtectionGroupMemberDetails[],
      },
    });
    await client.createWaiters().forWorkRequest({ workRequestId: r.opcWorkRequestId });
    console.log(`Added volume group ${volumeGroupId} to protection group "${group.displayName}".`);
    console.log(
      'Its DR plans now need a refresh (`npx ocikit refresh --yes` records their new state): raise refreshTrigger, then verifyTrigger.',
    );
  } finally {
    client.close();
    await emulator.close();
  }
}

main().catch((e: unknown) => {
  console.error(`change-group: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
