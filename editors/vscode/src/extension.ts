// The lore extension: starts `lore lsp` for the YAML and JSON files of the
// workspace and passes it the lore.* settings. Everything a creator sees
// (diagnostics, hover, fixes, completion, outline, formatting) comes from
// the server; this file only starts it.
import * as vscode from 'vscode';
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  TransportKind,
} from 'vscode-languageclient/node';

let client: LanguageClient | undefined;

function options(): { vars: string; engine: string } {
  const cfg = vscode.workspace.getConfiguration('lore');
  return { vars: cfg.get<string>('vars', ''), engine: cfg.get<string>('engine', '') };
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const command = vscode.workspace.getConfiguration('lore').get<string>('path', 'lore') || 'lore';
  const serverOptions: ServerOptions = {
    run: { command, args: ['lsp'], transport: TransportKind.stdio },
    debug: { command, args: ['lsp'], transport: TransportKind.stdio },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'yaml' },
      { scheme: 'file', language: 'json' },
    ],
    initializationOptions: options(),
    synchronize: {
      configurationSection: 'lore',
      fileEvents: vscode.workspace.createFileSystemWatcher('**/{*.yaml,*.yml,*.json,.lore.yaml}'),
    },
  };
  client = new LanguageClient('lore', 'lore', serverOptions, clientOptions);
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('lore.path')) {
        void vscode.window.showInformationMessage('lore.path changed: reload the window to start that lore.');
      }
    }),
  );
  await client.start();
}

export async function deactivate(): Promise<void> {
  if (client) {
    await client.stop();
  }
}
