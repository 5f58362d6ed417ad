import { userListSchema, userRowSchema, type Role, type UserRow } from '@cassavascope/contract';
import { apiRequest, listResults } from '../../../lib/api-client';

/** `/users/` (admin only): every user (a lab has tens, not thousands: one page of up to 1000). */
export async function listUsers(): Promise<UserRow[]> {
  return listResults(await apiRequest('/users/', { query: { page_size: 1000 }, schema: userListSchema })) as UserRow[];
}

export const addUser = (user: { username: string; password: string; role: Role }) =>
  apiRequest<UserRow>('/users/', { method: 'POST', body: user, schema: userRowSchema });

export const changeUser = (id: number, changes: { role?: Role; password?: string }) =>
  apiRequest<UserRow>(`/users/${id}/`, { method: 'PATCH', body: changes, schema: userRowSchema });

export const deleteUser = (id: number) => apiRequest<null>(`/users/${id}/`, { method: 'DELETE' });
