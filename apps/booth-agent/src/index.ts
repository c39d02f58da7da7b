// The booth agent's composition and driver core; the MQTT link and uploads build on these.
export * from './template.js';
export { FILTER_NAMES, knownFilter, type FilterName } from './filters.js';
export { composePrint, makeLowres, type ComposeOptions } from './compose.js';
export type { Camera } from './camera/camera.js';
export { SimulatedCamera, type SimulatedCameraOptions } from './camera/simulated-camera.js';
export { FolderCamera } from './camera/folder-camera.js';
export type { PrintJob, Printer } from './printer/printer.js';
export { SimulatedPrinter } from './printer/simulated-printer.js';
export { CupsPrinter, type CupsPrinterOptions } from './printer/cups-printer.js';
export {
  BoothAgent,
  BOOTH_MESSAGES,
  commandDeadline,
  MAX_PENDING_REPORTS,
  type AgentTimers,
  type BoothAgentOptions,
  type BoothStatus,
} from './agent.js';
export { StateFile, type BoothState } from './state.js';
export { CURRENT_RELEASE_FILE, readCurrentRelease, type InstalledRelease } from './updater.js';
export { consoleLog, silentLog, type AgentLog, type LogLevel } from './log.js';
export { BOOTH_AGENT_VERSION } from './version.js';
