package io.idem.bench;

import io.idem.server.http.Json;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * A closed-loop HTTP load: {@code clients} platform threads, each sending its next request ({@code
 * POST /v1/jobs}, or a chat completion) as soon as the previous one answered, over one shared
 * HTTP/1.1 keep-alive client, until a time limit or a request budget runs out; or paced, a number
 * of requests a second. Latency is each exchange as the client saw it (closed loop: a slow answer
 * delays the next request instead of queueing it, so the tail is not corrected for coordinated
 * omission). Only {@code 127.0.0.1}.
 */
final class HttpLoad {
    private final HttpClient http;
    private final Target target;
    private final URI uri;
    private final String apiKey;

    /** What the load sends: the path, each request's body, and the status of an answered request. */
    record Target(String path, int answered, Body body) {
        /** The body of a client's {@code sequence}-th request. */
        interface Body {
            String of(int client, long sequence);
        }

        /** {@code POST /v1/jobs}, a prompt of its own each ({@code 202}). */
        static final Target JOBS = new Target(
                "/v1/jobs",
                202,
                (client, sequence) ->
                        "{\"prompt\":\"bench job " + client + "-" + sequence + ": a lighthouse over a cloud ocean\"}");

        /** {@code POST /v1/chat/completions} for {@code model}, the same small question each ({@code 200}). */
        static Target chat(String model) {
            String body = "{\"model\":\"" + model
                    + "\",\"messages\":[{\"role\":\"user\",\"content\":\"Say hello.\"}],\"max_tokens\":16}";
            return new Target("/v1/chat/completions", 200, (client, sequence) -> body);
        }
    }

    /** How requests are keyed: none, or a new {@code Idempotency-Key} for each request. */
    enum Keys {
        NONE,
        UNIQUE
    }

    /** What one run did. */
    record Result(
            long ok, long failed, Map<Integer, Long> statuses, Histogram latency, Duration elapsed, String error) {
        double perSecond() {
            return ok / (elapsed.toNanos() / 1e9);
        }
    }

    HttpLoad(String baseUrl, String apiKey) {
        this(baseUrl, apiKey, Target.JOBS);
    }

    HttpLoad(String baseUrl, String apiKey, Target target) {
        if (!baseUrl.startsWith("http://127.0.0.1:")) {
            throw new IllegalArgumentException("the load tool only talks to 127.0.0.1, not " + baseUrl);
        }
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
        this.target = target;
        this.uri = URI.create(baseUrl + target.path());
        this.apiKey = apiKey;
    }

    /** Runs until {@code limit} has passed or {@code budget} requests were sent, whichever is first. */
    Result run(int clients, Duration limit, long budget, Keys keys) {
        AtomicLong left = new AtomicLong(budget);
        return load(clients, limit, keys, (client, deadline, exchange) -> {
            while (System.nanoTime() < deadline && left.getAndDecrement() > 0) {
                exchange.next();
            }
        });
    }

    /**
     * {@code perSecond} requests a second for {@code limit}, paced as autocannon paces its {@code
     * overallRate}: at every one-second tick each client sends its share back to back, each request
     * as soon as the one before it is answered, then waits for the next tick. Every second so opens
     * with {@code clients} requests at once.
     */
    Result paced(int clients, Duration limit, int perSecond, Keys keys) {
        long start = System.nanoTime();
        return load(clients, limit, keys, (client, deadline, exchange) -> {
            int share = perSecond / clients + (client < perSecond % clients ? 1 : 0);
            for (long tick = start; tick < deadline; tick += 1_000_000_000L) {
                for (int i = 0; i < share && System.nanoTime() < deadline; i++) {
                    exchange.next();
                }
                long wait = tick + 1_000_000_000L - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                }
            }
        });
    }

    /** One client's requests: it calls {@link Exchange#next()} for each, until {@code deadline} ({@code System.nanoTime()}). */
    private interface Pace {
        void drive(int client, long deadline, Exchange exchange) throws InterruptedException;
    }

    /** Sends a client's next request and records its answer. */
    private interface Exchange {
        void next() throws InterruptedException;
    }

    private Result load(int clients, Duration limit, Keys keys, Pace pace) {
        AtomicReference<String> firstError = new AtomicReference<>();
        Map<Integer, Long> statuses = new ConcurrentHashMap<>();
        List<Histogram> histograms = new ArrayList<>();
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        long[] deadline = new long[1];
        for (int i = 0; i < clients; i++) {
            Histogram histogram = new Histogram(Duration.ofSeconds(60).toNanos(), 3);
            histograms.add(histogram);
            int client = i;
            threads.add(Thread.ofPlatform().name("bench-client-" + i).start(() -> {
                await(go);
                long[] sequence = {0};
                Exchange exchange = () -> {
                    HttpRequest request = request(client, sequence[0]++, keys);
                    long started = System.nanoTime();
                    try {
                        HttpResponse<Void> response = http.send(request, HttpResponse.BodyHandlers.discarding());
                        histogram.recordValue(System.nanoTime() - started);
                        statuses.merge(response.statusCode(), 1L, Long::sum);
                    } catch (IOException e) {
                        statuses.merge(-1, 1L, Long::sum);
                        firstError.compareAndSet(null, e.toString());
                    }
                };
                try {
                    pace.drive(client, deadline[0], exchange);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        long started = System.nanoTime();
        deadline[0] = started + limit.toNanos();
        go.countDown();
        for (Thread thread : threads) {
            join(thread);
        }
        Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
        Histogram all = new Histogram(Duration.ofSeconds(60).toNanos(), 3);
        histograms.forEach(all::add);
        long ok = statuses.getOrDefault(target.answered(), 0L);
        long total = statuses.values().stream().mapToLong(Long::longValue).sum();
        return new Result(ok, total - ok, new TreeMap<>(statuses), all, elapsed, firstError.get());
    }

    private HttpRequest request(int client, long sequence, Keys keys) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri)
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + apiKey)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(target.body().of(client, sequence)));
        switch (keys) {
            case NONE -> {}
            case UNIQUE -> request.header("Idempotency-Key", "bench-" + UUID.randomUUID());
        }
        return request.build();
    }

    /** Creates a {@code client} key through the admin API and returns its secret. */
    static String clientKey(String baseUrl, String adminKey) {
        HttpClient http = HttpClient.newHttpClient();
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + "/v1/admin/keys"))
                .header("Authorization", "Bearer " + adminKey)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"owner\":\"bench\",\"role\":\"client\"}"))
                .build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 201) {
                throw new IllegalStateException("could not create a client key: HTTP " + response.statusCode());
            }
            return Json.MAPPER.readTree(response.body()).get("key").asText();
        } catch (IOException e) {
            throw new IllegalStateException("could not create a client key", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void join(Thread thread) {
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
