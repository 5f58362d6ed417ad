import pino, { type Logger } from 'pino';
import type { AppConfig } from './config/config.js';

export function createLogger(level: AppConfig['logLevel']): Logger {
  return pino({ level, base: { pid: process.pid } });
}
