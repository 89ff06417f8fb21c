import type { Operation } from '../engine';
import { isDefaultProvider } from '../engine/default-provider';
import { urnName } from '../engine/urn';
import type { EngineEvent } from '../engine/types';

/**
 * What Pulumi tells before asking to go ahead (PreviewThenPrompt, from the preview's steps): an
 * update of a stack with no resource says so, and an update or destroy that deletes or replaces
 * resources marked retainOnDelete lists what it will leave untracked.
 */
export function plannedSteps() {
  let resources = 0;
  const retained: string[] = [];
  return {
    note(e: EngineEvent): void {
      const m = e.resourcePreEvent?.metadata;
      // Internal steps (a default provider's) are not counted, as PreviewThenPrompt skips them.
      if (!m || isDefaultProvider(m.urn)) return;
      if (m.type !== 'pulumi:pulumi:Stack') resources++;
      if ((m.op === 'delete' || m.op === 'replace') && m.old?.retainOnDelete)
        retained.push(`    - ${m.type} ${urnName(m.urn)}\n`);
    },
    notices(operation: Operation): string {
      let text = '';
      if (operation === 'update' && resources === 0)
        text += 'info: There are no resources in your stack (other than the stack resource).\n\n';
      if (operation !== 'refresh' && retained.length)
        text += `info: This update will leave ${retained.length} resource(s) untracked in your environment:\n${retained.join('')}\n`;
      return text;
    },
  };
}
