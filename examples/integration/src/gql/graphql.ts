/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
/** What happened to the record an event is about. */
export type ChangeKind =
  /** The record was created. */
  | 'CREATED'
  /** The record was deleted, or is no longer yours to see. */
  | 'DELETED'
  /** The record was edited. */
  | 'UPDATED';

export type ViewerQueryVariables = Exact<{ [key: string]: never; }>;


export type ViewerQuery = { me: { id: number, username: string } | null };

export type CustomersPageQueryVariables = Exact<{
  first: number;
  after?: string | null | undefined;
}>;


export type CustomersPageQuery = { customers: { totalCount: number, nodes: Array<{ id: number, name: string, email: string }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type CustomerEventsSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type CustomerEventsSubscription = { customerEvents: { kind: ChangeKind, id: number, customer: { name: string, email: string } | null } };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}

export const ViewerDocument = new TypedDocumentString(`
    query Viewer {
  me {
    id
    username
  }
}
    `) as unknown as TypedDocumentString<ViewerQuery, ViewerQueryVariables>;
export const CustomersPageDocument = new TypedDocumentString(`
    query CustomersPage($first: Int!, $after: String) {
  customers(first: $first, after: $after) {
    totalCount
    nodes {
      id
      name
      email
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    `) as unknown as TypedDocumentString<CustomersPageQuery, CustomersPageQueryVariables>;
export const CustomerEventsDocument = new TypedDocumentString(`
    subscription CustomerEvents {
  customerEvents {
    kind
    id
    customer {
      name
      email
    }
  }
}
    `) as unknown as TypedDocumentString<CustomerEventsSubscription, CustomerEventsSubscriptionVariables>;