import { useQuery } from '@tanstack/react-query';
import { serverStatusSchema, type ServerStatus } from '@cassavascope/contract';
import { api } from './api-client';

export interface EngineView {
  label: string;
  /** `colour` (the built-in colour engine) or `onnx`; '' when the server does not say */
  kind: string;
}

export async function getEngine(signal?: AbortSignal): Promise<EngineView> {
  const status = await api.get<Partial<ServerStatus>>('/status/', undefined, signal, serverStatusSchema);
  return { label: status.engine?.label ?? '', kind: status.engine?.kind ?? '' };
}

/**
 * The engine the server scores with (`/api/status/` engine): screens name it instead of a fixed model, so they
 * never name a model the server does not run. The server runs exactly one engine.
 */
export function useEngine() {
  return useQuery({ queryKey: ['engine'], queryFn: ({ signal }) => getEngine(signal), staleTime: 60_000 });
}

/**
 * Whether test-time augmentation can change this engine's result. The colour engine classifies each pixel by its
 * colour alone, so a flipped copy gives the same probabilities and TTA averages identical maps: it has no effect.
 */
export const ttaActsOn = (engine: { kind: string } | { label: string | null }): boolean =>
  'kind' in engine ? engine.kind !== 'colour' : !/colour|color|cielab/i.test(engine.label ?? '');
