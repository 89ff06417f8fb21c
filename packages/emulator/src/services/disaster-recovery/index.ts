import { Repository } from '../../core/repository';
import { goneAmong } from '../common/lifecycle-policy';
import { WorkRequests } from '../common/work-requests';
import type { EmulatedService, ServiceDependencies } from '../service';
import { DrPlans, planKind, type DrPlanBody } from './plans';
import { DrProtectionGroups, protectionGroupKind, type DrProtectionGroupBody } from './protection-groups';
import { disasterRecoveryRoutes } from './routes';
import { seedDisasterRecoverySandbox, type DrSandboxIds } from './sandbox';

export type { DrSandboxIds } from './sandbox';

/**
 * Full Stack Disaster Recovery (API 20220125): DR protection groups, DR plans (with
 * refresh/verify) and their work requests. Plan executions and automatic DR configurations
 * answer 501.
 */
export function createDisasterRecoveryService(deps: ServiceDependencies): EmulatedService<DrSandboxIds> {
  const { store, clock, settings } = deps;
  const groupRepository = new Repository<DrProtectionGroupBody>(store, protectionGroupKind, clock);
  const planRepository = new Repository<DrPlanBody>(store, planKind, clock);
  const workRequests = new WorkRequests(store, clock, {
    table: 'dr_work_requests',
    ocidType: 'drworkrequest',
    transitionDelayMs: settings.transitionDelayMs,
    detailsField: 'lifeCycleDetails',
  });
  workRequests.registerKind(groupRepository);
  workRequests.registerKind(planRepository);

  const plans = new DrPlans({ plans: planRepository, groups: groupRepository, workRequests, clock, settings });
  const groups = new DrProtectionGroups({ groups: groupRepository, plans, workRequests, clock, settings });
  return {
    routes: disasterRecoveryRoutes({
      groups,
      plans,
      workRequests,
      homeRegion: settings.homeRegion,
      isGone: goneAmong([groupRepository, planRepository]),
    }),
    seedSandbox: (context) => seedDisasterRecoverySandbox(groups, context),
  };
}
