/**
 * The Java API for running Idem inside a service: {@link io.idem.embedded.Idem} and the values it
 * takes and returns. Everything a Java user depends on is in this package; {@code
 * io.idem.embedded.internal} and the other Idem modules are implementation and may change in any
 * release.
 */
package io.idem.embedded;
