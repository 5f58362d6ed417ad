import { useQuery } from '@tanstack/react-query';
import type { ServerStatus } from '@cassavascope/contract';
import { api } from '../../../lib/api-client';

export interface EngineView {
  label: string;
  kind: string;
}

export async function getEngine(signal?: AbortSignal): Promise<EngineView> {
  const status = await api.get<Partial<ServerStatus>>('/status/', undefined, signal);
  return { label: status.engine?.label ?? '', kind: status.engine?.kind ?? '' };
}

/**
 * The engine the server scores with (`/api/status/` engine.label): the model select shows it, so the screen
 * never names a model the server does not run. The server runs exactly one engine.
 */
export function useEngine() {
  return useQuery({ queryKey: ['prediction', 'engine'], queryFn: ({ signal }) => getEngine(signal), staleTime: 60_000 });
}
