import { AccountView } from './account-view';

export const metadata = { title: 'Account · Tidemark' };

export default function AccountPage() {
  return <AccountView />;
}
