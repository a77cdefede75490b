/**
 * The address the app serves a ticket image at (the gateway's route, gateway/src/http/images.ts), built at the edge
 * from the image's id: records carry ids, never HTTP paths. The one place both transports take it from: GraphQL's
 * `TicketImage.url` and REST's Image `image` (gateway/src/rest/shapes.ts).
 */
export function imageUrl(imageId: number): string {
  return `/images/${imageId}`;
}
