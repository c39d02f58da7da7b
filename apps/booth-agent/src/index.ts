// The booth agent: the MQTT link, capture sessions, transfers, error reports and updates, and the
// camera and printer drivers. Print composition lives in @flashbooth/print-composition.
export type { Camera, MotionRecording, MotionRequest } from './camera/camera.js';
export {
  FakeMotionEncoder,
  FfmpegMotionEncoder,
  MOTION_FILES,
  type EncodeRequest,
  type EncodeResult,
  type FfmpegEncoderOptions,
  type MotionEncoder,
} from './motion/encoder.js';
export { SimulatedCamera, type SimulatedCameraOptions } from './camera/simulated-camera.js';
export { FolderCamera } from './camera/folder-camera.js';
export type { PrintJob, Printer } from './printer/printer.js';
export { SimulatedPrinter } from './printer/simulated-printer.js';
export { CupsPrinter, type CupsPrinterOptions } from './printer/cups-printer.js';
export { BoothAgent, type AgentTimers, type BoothAgentOptions } from './agent.js';
export { BOOTH_MESSAGES } from './replies.js';
export { commandDeadline } from './command-intake.js';
export { MAX_PENDING_REPORTS } from './report-outbox.js';
export type { BoothStatus } from './status.js';
export { StateFile, type BoothState } from './state.js';
export { CURRENT_RELEASE_FILE, readCurrentRelease, type InstalledRelease } from './updater.js';
export { consoleLog, silentLog, type AgentLog, type LogLevel } from './log.js';
export { BOOTH_AGENT_VERSION } from './version.js';
export { Gphoto2Camera, type Gphoto2CameraOptions } from './camera/gphoto2-camera.js';
export { WebcamCamera, type WebcamCameraOptions } from './camera/webcam-camera.js';
export { RpicamCamera, type RpicamCameraOptions } from './camera/rpicam-camera.js';
export { cameraFromEnv, type CameraFromEnv } from './camera/camera-from-env.js';
export type { PrinterStatus } from './printer/printer.js';
export { doctorCommand, runDoctor, type CheckResult, type DoctorOptions } from './doctor.js';
