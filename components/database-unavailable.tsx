export function DatabaseUnavailable({ message }: { message: string }) {
  return (
    <div role="alert" className="rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-900">
      <p className="font-medium">The database is not available.</p>
      <p className="mt-1 whitespace-pre-wrap">{message}</p>
    </div>
  );
}
