// The fields Herald asks Meta's Graph objects for and reads from their answers, keyed by the object's
// name in Meta's business SDK, so test/connectors/metaFields.test.ts checks each against the SDK's
// field lists (test/fixtures/metaSdkFields.json): a field Meta renames fails there, not in production.
export const META_FIELDS = {
  /** The Pages a person reaches (me/accounts, a business's owned_pages and client_pages). */
  Page: 'id,name,access_token,instagram_business_account',
  /** The businesses a person works in (me/businesses). */
  Business: 'id,name',
  /** A Page's recent posts, and a post's address. */
  PagePost: 'id,message,created_time,permalink_url',
  PagePostAddress: 'permalink_url',
  /** A Page's stories. */
  Stories: 'post_id,media_id,status,creation_time,media_type',
  /** An Instagram container's state (the SDK's ShadowIGMediaBuilder). */
  ShadowIGMediaBuilder: 'status_code,status',
  /** An Instagram media's recent-list fields (graph/containers.ts, text field `caption`), address, product type. */
  IGMedia: 'id,caption,timestamp,permalink,media_product_type',
  IGMediaKind: 'media_product_type',
  /** IG content_publishing_limit (Threads' threads_publishing_limit answers the same names). */
  ContentPublishingLimitResponse: 'quota_usage,config',
} as const;
