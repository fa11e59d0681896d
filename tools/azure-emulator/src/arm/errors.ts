/** An ARM error: HTTP status plus the `{"error":{"code","message"}}` body ARM returns. */
export class ArmError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ArmError';
  }

  toBody(): { error: { code: string; message: string } } {
    return { error: { code: this.code, message: this.message } };
  }
}

export function resourceNotFound(type: string, name: string, resourceGroup: string): ArmError {
  return new ArmError(
    404,
    'ResourceNotFound',
    `The Resource '${type}/${name}' under resource group '${resourceGroup}' was not found. ` +
      'For more details please go to https://aka.ms/ARMResourceNotFoundFix',
  );
}

export function parentResourceNotFound(parentName: string): ArmError {
  return new ArmError(404, 'ParentResourceNotFound', `Can not perform requested operation on nested resource. Parent resource '${parentName}' not found.`);
}

export function badRequest(message: string, code = 'BadRequest'): ArmError {
  return new ArmError(400, code, message);
}

export function conflict(message: string, code = 'Conflict'): ArmError {
  return new ArmError(409, code, message);
}
