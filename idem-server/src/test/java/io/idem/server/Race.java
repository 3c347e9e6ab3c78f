package io.idem.server;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/** Concurrency claims in tests: the same call on real threads, released together. */
public final class Race {
    private Race() {}

    /** Runs {@code call} on {@code threads} threads at once; their results, in no particular order. */
    public static <T> List<T> of(int threads, Supplier<T> call) {
        CountDownLatch go = new CountDownLatch(1);
        List<CompletableFuture<T>> results = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            for (int i = 0; i < threads; i++) {
                results.add(CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                go.await();
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                            return call.get();
                        },
                        pool));
            }
            go.countDown();
        }
        return results.stream().map(CompletableFuture::join).toList();
    }
}
