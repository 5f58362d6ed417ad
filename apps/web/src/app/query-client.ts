import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../lib/api-client';

/** Server state cache. Lists are refetched after every change (spec section 4: "after changes, the lists are reloaded"). */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 5_000,
        refetchOnWindowFocus: false,
        // Retrying a 4xx never helps; one retry for network blips.
        retry: (count, err) => count < 1 && !(err instanceof ApiError && err.status >= 400 && err.status < 500),
      },
    },
  });
}
