/**
 * The implementation behind {@link io.idem.embedded.Idem}: not an API, it may change in any
 * release. It wires an {@code idem serve} node's engine ({@code IdemServer.embed}) and translates
 * between the API's values and the engine's.
 */
package io.idem.embedded.internal;
