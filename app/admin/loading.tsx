import { Skeleton } from "@/components/ui/skeleton";

/** While an admin page's server data loads: the page's shape in grey, announced once. */
export default function AdminLoading() {
  return (
    <div className="space-y-6">
      <div aria-hidden="true" className="h-8 w-64 animate-pulse rounded-md bg-subtle motion-reduce:animate-none" />
      <Skeleton what="the admin page" rows={6} />
    </div>
  );
}
