import type { Severity } from '../findings/finding.js';

export type RuleSetting = Severity | 'off';
export type Preset = 'recommended' | 'strict';

/** mcprely.config.yaml after validation against schemas/config.schema.json. */
export interface Config {
  readonly extends?: readonly Preset[];
  readonly rules?: Readonly<Record<string, RuleSetting>>;
  readonly overrides?: readonly { readonly files: readonly string[]; readonly rules: Readonly<Record<string, RuleSetting>> }[];
  /** Folders of the user's own rule files, relative to the configuration file. */
  readonly ruleFolders?: readonly string[];
}

/** The configuration used when none is found: the recommended preset. */
export const DEFAULT_CONFIG: Config = { extends: ['recommended'] };

export const CONFIG_FILE_NAMES = ['mcprely.config.yaml', 'mcprely.config.yml', 'mcprely.config.json'] as const;
