import { isRouteErrorResponse, useRouteError } from 'react-router';

export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : 'Something went wrong while loading this page.';
  return (
    <main className="page" id="main">
      <h1 className="page-title">Something went wrong</h1>
      <p>{message}</p>
      <p>Check your connection and reload the page.</p>
      <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
        Reload
      </button>
    </main>
  );
}
