export * from './constants.js';
export * from './objects.js';
export * from './parameters.js';
export * from './responses.js';
export * from './auth.js';
export * from './metadata.js';
export * from './models.js';
export * from './labels.js';
