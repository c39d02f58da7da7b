// Registers tsx (resolved from this file, not from the working directory) and runs the CLI.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
