import { UsersView } from './users-view';

export const metadata = { title: 'Users · Tidemark' };

export default function UsersPage() {
  return <UsersView />;
}
