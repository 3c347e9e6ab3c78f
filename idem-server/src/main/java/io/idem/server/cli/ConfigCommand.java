package io.idem.server.cli;

import io.idem.core.provider.ProviderSettings;
import io.idem.server.config.ConfigException;
import io.idem.server.config.ConfigLoader;
import io.idem.server.config.IdemConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code idem config check}: validate idem.yaml and the environment, print what a node would run with. */
@Command(
        name = "config",
        description = "Check the configuration a node would start with.",
        subcommands = {ConfigCommand.Check.class})
final class ConfigCommand extends CommandGroup {

    @Command(
            name = "check",
            description = "Validate idem.yaml and the environment exactly as `serve` reads them, and print every"
                    + " setting with its value and source (secrets only as [set]). Exit 0 when valid, 2 when not.")
    static final class Check implements Callable<Integer> {
        @Option(names = "--config", description = "Path to idem.yaml (default: ./idem.yaml when present).")
        Path config;

        @Override
        public Integer call() {
            Optional<Path> file = Optional.ofNullable(config);
            if (file.isEmpty() && Files.exists(Path.of("idem.yaml"))) {
                file = Optional.of(Path.of("idem.yaml"));
            }
            if (file.isPresent() && !Files.isReadable(file.get())) {
                System.err.println("idem: configuration error: cannot read " + file.get());
                return 2;
            }
            ConfigLoader loader = new ConfigLoader(new HashMap<>(System.getenv()));
            IdemConfig loaded;
            try {
                loaded = loader.load(file);
            } catch (ConfigException e) {
                System.err.println("idem: configuration error: " + e.getMessage());
                return 2;
            }
            System.out.println(
                    "configuration is valid" + file.map(f -> " (" + f + ")").orElse(" (no idem.yaml)"));
            System.out.printf("%-40s  %-30s  %-10s  %s%n", "SETTING", "VALUE", "SOURCE", "VARIABLE");
            for (ConfigLoader.Setting s : loader.effective()) {
                System.out.printf("%-40s  %-30s  %-10s  %s%n", s.path(), s.value(), s.source(), s.envName());
            }
            printProviders(loaded);
            return 0;
        }

        /** Each provider with its adapter and whether the variables it names are set (never their values). */
        private static void printProviders(IdemConfig loaded) {
            System.out.println();
            System.out.printf("%-16s  %-14s  %s%n", "PROVIDER", "ADAPTER", "KEYS");
            Map<String, String> credentials = loaded.secrets().credentials();
            Stream.concat(
                            loaded.routing().providers().values().stream(),
                            loaded.chat().chatOnlyProviders().values().stream())
                    .forEach(p -> System.out.printf("%-16s  %-14s  %s%n", p.name(), p.adapter(), keys(p, credentials)));
        }

        private static String keys(ProviderSettings provider, Map<String, String> credentials) {
            StringBuilder out = new StringBuilder();
            Stream.of(provider.apiKeyEnv(), provider.usageKeyEnv(), provider.secretKeyEnv())
                    .flatMap(java.util.Optional::stream)
                    .forEach(variable ->
                            out.append(variable).append(credentials.containsKey(variable) ? "=[set] " : "=[MISSING] "));
            return out.isEmpty() ? "none needed" : out.toString().strip();
        }
    }
}
