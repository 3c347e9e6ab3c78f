package io.idem.providers.http;

import io.idem.core.spi.AttemptListener;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Records the provider request ids an adapter reports, in order. */
public final class SeenIds implements AttemptListener {
    public final List<String> seen = new CopyOnWriteArrayList<>();

    @Override
    public void submitted(String providerRequestId) {
        seen.add(providerRequestId);
    }
}
