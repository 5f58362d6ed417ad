export { getEngine, useEngine, type EngineView } from '../../../lib/engine-status';
