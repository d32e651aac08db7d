import { redirect } from 'next/navigation';

/** The cockpit opens on the crawls list. */
export default function Home() {
  redirect('/crawls');
}
