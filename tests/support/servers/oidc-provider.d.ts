/**
 * The few parts of oidc-provider 9 the OAuth test server uses (the package ships no types and
 * `@types/oidc-provider` is not a dependency).
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface ClientLike {
    clientId: string;
  }

  interface TokenLike {
    readonly kind: string;
    clientId?: string;
    accountId?: string;
    scope?: string;
    /** Seconds until it expires. */
    readonly expiration: number;
    readonly isExpired: boolean;
    save(): Promise<string>;
  }

  interface TokenClass<T extends TokenLike = TokenLike> {
    new (properties: Record<string, unknown>): T;
    find(value: string, options?: { ignoreExpiration?: boolean }): Promise<T | undefined>;
  }

  interface GrantLike extends TokenLike {
    addOIDCScope(scope: string): void;
  }

  namespace Provider {
    interface KoaContextWithOIDC {
      oidc: { params: Record<string, unknown>; client?: ClientLike };
      body: unknown;
    }
  }

  class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    registerGrantType(name: string, handler: (ctx: Provider.KoaContextWithOIDC) => Promise<void>, params?: string[]): void;
    readonly Grant: TokenClass<GrantLike>;
    readonly AccessToken: TokenClass;
    readonly RefreshToken: TokenClass;
    readonly ClientCredentials: TokenClass;
  }

  class OIDCProviderError extends Error {
    constructor(description?: string, detail?: string);
  }

  const errors: {
    InvalidRequest: typeof OIDCProviderError;
    InvalidGrant: typeof OIDCProviderError;
    InvalidScope: typeof OIDCProviderError;
  };

  export { errors, Provider };
  export default Provider;
}
