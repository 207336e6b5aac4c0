import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GraphQLError } from 'graphql';
import { createSchema, createYoga, type YogaInitialContext } from 'graphql-yoga';

/** A running GraphQL login API. */
export interface GraphqlServer {
  /** The GraphQL endpoint, `http://127.0.0.1:PORT/graphql`. */
  url: string;
  /** username -> password. */
  users: Record<string, string>;
  stop(): Promise<void>;
}

/** Options of {@link startGraphql}. */
export interface GraphqlOptions {
  users?: Record<string, string>;
  /** Lifetime of access tokens in seconds (default 3600); refresh tokens live 10 times longer. */
  tokenTtl?: number;
}

const typeDefs = /* GraphQL */ `
  type AuthPayload {
    token: String!
    refreshToken: String!
    expiresIn: Int!
  }
  type User {
    username: String!
  }
  type Query {
    "The user of the Authorization: Bearer token; an UNAUTHENTICATED error without a valid one."
    me: User
  }
  type Mutation {
    "Errors (HTTP 200) for a wrong username or password."
    login(username: String!, password: String!): AuthPayload
    refresh(refreshToken: String!): AuthPayload
  }
`;

interface Issued {
  username: string;
  expiresAt: number;
}

/**
 * Starts a graphql-yoga server (graphql 16) in-process on a free port of 127.0.0.1: a `login`
 * mutation that answers `{ token, refreshToken, expiresIn }` or, as GraphQL APIs do, HTTP 200 with
 * an `errors` array on a wrong password; `refresh(refreshToken)`; and `me`, which reads
 * `Authorization: Bearer <token>` and answers which user the server sees.
 *
 * @example
 * const gql = await startGraphql();
 * // POST gql.url {"query":"mutation($u:String!,$p:String!){login(username:$u,password:$p){token}}","variables":{...}}
 * await gql.stop();
 */
export async function startGraphql(options: GraphqlOptions = {}): Promise<GraphqlServer> {
  const users = { ...(options.users ?? { alice: 'alice "quoted" password', bob: 'bob-password' }) };
  const ttl = (options.tokenTtl ?? 3600) * 1000;
  const tokens = new Map<string, Issued>();
  const refreshTokens = new Map<string, Issued>();
  const issue = (username: string) => {
    const token = randomBytes(24).toString('base64url');
    const refreshToken = randomBytes(24).toString('base64url');
    tokens.set(token, { username, expiresAt: Date.now() + ttl });
    refreshTokens.set(refreshToken, { username, expiresAt: Date.now() + 10 * ttl });
    return { token, refreshToken, expiresIn: Math.round(ttl / 1000) };
  };
  const valid = (store: Map<string, Issued>, value: string | undefined) => {
    const found = value === undefined ? undefined : store.get(value);
    return found && found.expiresAt > Date.now() ? found : undefined;
  };
  const unauthenticated = (message: string) => new GraphQLError(message, { extensions: { code: 'UNAUTHENTICATED' } });

  const schema = createSchema<YogaInitialContext>({
    typeDefs,
    resolvers: {
      Query: {
        me: (_: unknown, __: unknown, context: YogaInitialContext) => {
          const bearer = /^Bearer (.+)$/i.exec(context.request.headers.get('authorization') ?? '')?.[1];
          const found = valid(tokens, bearer);
          if (!found) throw unauthenticated('not authenticated');
          return { username: found.username };
        },
      },
      Mutation: {
        login: (_: unknown, args: { username: string; password: string }) => {
          if (users[args.username] === undefined || users[args.username] !== args.password) {
            throw unauthenticated('Invalid username or password');
          }
          return issue(args.username);
        },
        refresh: (_: unknown, args: { refreshToken: string }) => {
          const found = valid(refreshTokens, args.refreshToken);
          if (!found) throw unauthenticated('Invalid or expired refresh token');
          refreshTokens.delete(args.refreshToken);
          return issue(found.username);
        },
      },
    },
  });
  const yoga = createYoga({ schema, graphqlEndpoint: '/graphql', logging: false, landingPage: false });
  const server = createServer(yoga);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`,
    users,
    stop: () => {
      server.closeAllConnections();
      return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
