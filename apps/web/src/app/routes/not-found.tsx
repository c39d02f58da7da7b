import { Link } from 'react-router';

/** Screens that later work will build lead here until then; unknown addresses too. */
export default function NotFound() {
  return (
    <main className="page" id="main">
      <h1 className="page-title">Page not found</h1>
      <p>We couldn't find that page. It may have moved, or it isn't available yet.</p>
      <Link className="btn btn-primary" to="/">
        Go to home
      </Link>
    </main>
  );
}
