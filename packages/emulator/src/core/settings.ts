/** Behaviour settings shared by every service; fixed for the life of one emulator process. */
export interface EmulatorSettings {
  /** The region of requests without a `/r/<region>` prefix. */
  homeRegion: string;
  /** How long CREATING/UPDATING/DELETING and work requests last. 0 in tests. */
  transitionDelayMs: number;
  /** How long a custom AI Language model trains (stays CREATING). */
  trainingDurationMs: number;
  /** How long a deleted resource stays readable as DELETED before reads answer 404. */
  deletedRetentionMs: number;
}

/** The other region the sandbox puts its standby protection group in. */
export const peerRegionFor = (homeRegion: string): string =>
  homeRegion === 'us-phoenix-1' ? 'us-ashburn-1' : 'us-phoenix-1';
