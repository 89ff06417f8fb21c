import { drPlan } from './dr-plan';
import { endpoint } from './endpoint';
import type { ResourceModule } from './resource';

const MODULES: Record<string, ResourceModule> = { [drPlan.token]: drPlan, [endpoint.token]: endpoint };

export function resourceModule(token: string): ResourceModule | undefined {
  return MODULES[token];
}
