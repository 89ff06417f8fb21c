import { OciServiceError } from '../core/errors';

/** An error the admin API asked the emulator to answer, for testing clients' error handling. */
export interface Fault {
  /** OCI operation name (e.g. `GetDrPlan`); absent means any operation. */
  operation?: string;
  status: number;
  code: string;
  message?: string;
  /** How many matching requests get the fault. */
  count: number;
}

/** Injected faults (in memory only: they are a test aid, not state). */
export class FaultInjector {
  private faults: Fault[] = [];

  add(fault: Fault): void {
    this.faults.push({ ...fault });
  }

  clear(): void {
    this.faults = [];
  }

  list(): Fault[] {
    return this.faults.map((f) => ({ ...f }));
  }

  /** The error to answer instead of running `operation`, if a fault is armed for it. */
  take(operation: string): OciServiceError | undefined {
    const fault = this.faults.find((f) => f.count > 0 && (!f.operation || f.operation === operation));
    if (!fault) return undefined;
    fault.count -= 1;
    this.faults = this.faults.filter((f) => f.count > 0);
    return new OciServiceError(fault.status, fault.code, fault.message ?? `Injected fault for ${operation}.`);
  }
}
