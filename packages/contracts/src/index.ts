export * from './common.js';
export * from './phone.js';
export * from './users.js';
export * from './auth.js';
export * from './rules.js';
export * from './devices.js';
export * from './templates.js';
export * from './media.js';
